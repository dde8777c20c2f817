"""Action flows: ask for what a command still needs, show exactly what it will do, commit.

Every action, from a key, the command palette or the quick-entry line, goes through
:meth:`Flow.run`: fields already given are not asked again, choices offered are the legal
ones (with the engine's reason beside those that are not), amounts come from the engine,
and money-moving commands are previewed (``GameState.preview``: applied and taken back on the
engine) so the banker sees who pays whom before confirming.

Every question goes through :meth:`Flow.question`, which keeps the answers of the action in a
:class:`Questions` stack: Escape steps back one question (the flow is run again from its start with
the answers before kept, so what they make needed or not is worked out again, and the question
before is asked again with its answer highlighted or typed in); Escape on the first question, or on a
confirmation when nothing was asked, cancels the action. A new flow gets stepping back for free.

What is asked for is derived from the op (:mod:`banker.rules.ops`): :meth:`Flow.ask_missing`
walks its fields in order and asks for each one the command lacks and the op needs (or the
console asks about: :func:`banker.rules.ops.asked`), by the field's kind: a player, a space, an
amount, the dice, a text, a flag, a choice... Here are only the words and the offers of each
question (who may be chosen, which spaces, the bounds of an amount). The ops with dialogs of
their own (dealing, tax, cards, selling buildings, the shortage auction, trade, bankruptcy,
undo, the end) keep their flows, asking their simple fields the same way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rich.text import Text

from banker.ledger import SessionError
from banker.rules import BANK, POT, Refused, ops
from banker.rules.bankruptcy import LiftTerms
from banker.rules.bankruptcy import preview as bankruptcy_preview
from banker.rules.building import (
    auction_min_bid,
    check_build,
    check_sale,
    default_sale,
    legal_group_sales,
    no_shortage,
    no_shortage_now,
)
from banker.rules.cards import describe_effect
from banker.rules.commands import no_pot
from banker.rules.count import Difference, difference_msg, sources
from banker.rules.effects import Debt, Hotel, Houses, JailCardHolder, Owner, Pay, Stock
from banker.rules.legal import check_jail_release, deal_plan
from banker.rules.messages import Msg
from banker.rules.mortgage import check_mortgage, lift_cost
from banker.rules.ops import SPEED_FACES, FieldSpec
from banker.rules.parse import MONEY_KEYS
from banker.rules.rent import dice_range
from banker.rules.turns import describe, free_move_asked

from .screens.auction import AuctionScreen
from .screens.count import CountScreen
from .screens.debt import RaiseCashScreen
from .screens.dialogs import AskScreen, Choice, ChooseScreen, ConfirmScreen, Dialog, InfoScreen
from .screens.trade import TradeScreen
from .screens.turn import ProposalScreen, RollScreen, release_typed

if TYPE_CHECKING:  # pragma: no cover
    from banker.ledger import Entry
    from banker.rules import GameState, Move
    from banker.rules.edition import Space

    from .app import BankerApp

Lines = list[Text | str]
FlowFn = Callable[[dict[str, Any], str], Awaitable["Entry | None"]]

#: what a flag asks: (op, key) -> the labels of false and true
FLAG_LABELS: dict[tuple[str, str], tuple[str, str]] = {
    ("salary", "landed"): ("flow.passed_go", "flow.landed_go"),
    ("card", "passed_go"): ("flow.not_passed_go", "flow.passed_go"),
    ("place", "jail"): ("flow.just_visiting", "flow.in_jail"),
    ("follow", "on"): ("flow.follow_off", "flow.follow_on"),
}
#: left out of the command (an answer that sets nothing: a rent landed on by the dice)
LEAVE_OUT = object()
#: follow mode: the ops whose one question is the player, taken to be the player whose turn it is (salary: ``s``,
#: Enter); the confirmation says so, and Escape there asks for the player (that player highlighted first)
TURN_PLAYER_OPS = ("salary", "jail_fine", "jail_card", "free_parking")
#: follow mode: the most proposals one roll's settling goes through in a row (a card's move proposes the next)
MAX_PROPOSALS = 12


class Cancelled(Exception):
    """The banker cancelled the action (Escape on its first question, or ``n`` on a confirmation)."""


class StepBack(Exception):
    """Escape on a question that has one before it: the flow is run again, that question asked again."""


class NotWritten(Exception):
    """The disk refused to record the action (a full disk, an I/O error; nothing recorded): the flow is run again
    with its answers kept, its last question (the confirmation) asked again with ``said`` on it, so Enter records
    it once the disk takes it (:meth:`Flow.commit`)."""

    def __init__(self, said: str) -> None:
        super().__init__(said)
        self.said = said


#: a question's answer not given (:meth:`Flow.question`'s ``auto``)
NOTHING = object()


@dataclass
class Answer:
    value: Any
    auto: bool = False  # taken without asking (follow mode: the player whose turn it is)


@dataclass
class Questions:
    """The answers of one action (or of one part of it: a proposal, the card drawn after a card's choice), in the
    order asked. While the flow runs, ``at`` is the number of questions passed so far; a run after Escape replays
    the answers kept instead of asking again, up to the question stepped back to. ``ahead``: the answers the banker
    stepped back over, the first one the answer of the question now asked: each is shown again (highlighted, typed
    in) while the banker gives the same answers again. After a commit nothing steps back (a replay would record it
    twice). ``failed``: why the disk refused to record the action, said on the question asked again for it
    (:class:`NotWritten`). ``seed``: the deal's shuffle, drawn on its first run and kept for every run after (Escape,
    the disk refusing to record it), so the question asked again shows what the banker saw."""

    answers: list[Answer] = field(default_factory=list)
    at: int = 0
    ahead: list[Any] = field(default_factory=list)
    committed: bool = False
    failed: str | None = None
    seed: int | None = None
    #: what the Escape key says on a question where it leaves the action (None: "Cancel"; :class:`Dialog`'s ``leave``)
    leave: str | None = None

    def previous(self) -> Any:
        """The answer the question now asked had before the banker stepped back over it (None: none)."""
        return self.ahead[0] if self.ahead else None

    def answered(self, value: Any) -> None:
        self.answers.append(Answer(value))
        self.at += 1
        if self.ahead and self.ahead[0] == value:
            self.ahead.pop(0)
        else:  # another answer: what followed the old one may no longer be asked
            self.ahead.clear()

    @property
    def can_step_back(self) -> bool:
        return self.at > 0 and not self.committed


#: the actions a debtor raises the cash with: while a debt is open, their player question highlights the debtor first
DEBTOR_OPS = ("mortgage", "sell_building", "trade")


class Flow:
    def __init__(self, app: BankerApp) -> None:
        self.app = app
        self.tr = app.tr
        self.stack: list[Questions] = []  # the questions of the action, and of a part of it under way

    @property
    def state(self) -> GameState:
        session = self.app.session
        assert session is not None  # a flow runs only on an open session (BankerApp.start_action)
        return session.state

    def fmt(self, amount: int) -> str:
        return self.state.edition.fmt(amount)

    # ------------------------------------------------------------------ the questions: Escape steps back
    @property
    def questions(self) -> Questions:
        return self.stack[-1]

    async def asking(self, fn: FlowFn, cmd: dict[str, Any], title: str) -> Entry | None:
        """Run the flow ``fn`` with questions of its own: when the banker steps back, it is run again from its start
        on a copy of ``cmd`` as given, the answers before replayed (:meth:`question`)."""
        questions = Questions()
        self.stack.append(questions)
        try:
            while True:
                questions.at = 0
                try:
                    return await fn(dict(cmd), title)
                except StepBack:
                    continue
                except NotWritten as e:  # the last question (the confirmation) asked again, the answers before kept
                    questions.failed = e.said
                    questions.ahead.insert(0, questions.answers.pop().value)
                    continue
        finally:  # by identity: an action cut short (another one started) may end after the next one began
            self.stack.remove(questions)

    async def question(self, screen: Callable[[Any, bool], Dialog[Any]], auto: Any = NOTHING, form: bool = False) -> Any:
        """The answer of the next question: replayed when the flow runs again after Escape, else asked on
        ``screen(previous, back)`` (``previous``: the answer it had before the banker stepped back to it, or None;
        ``back``: Escape steps back). A dialog dismissed with None is Escape: a step back to the question before,
        or :class:`Cancelled` on the first one (and on a ``form``: one dialog with many fields, whose Escape
        cancels). ``auto``: the answer taken without asking, unless the banker stepped back to this question."""
        q = self.questions
        if q.at < len(q.answers):
            value = q.answers[q.at].value
            q.at += 1
            return value
        if auto is not NOTHING and not q.ahead:  # not when the banker stepped back to it
            q.answers.append(Answer(auto, auto=True))
            q.at += 1
            return auto
        back = q.can_step_back and not form
        shown = screen(q.previous(), back)
        if not back:
            shown.leave = q.leave
        if q.failed is not None:  # asked again after the disk refused to record the action: said on it
            shown.failed, q.failed = q.failed, None
        value = await self.app.push_screen_wait(shown)
        if value is None:
            if not back:
                raise Cancelled
            q.ahead.insert(0, q.answers.pop().value)
            raise StepBack
        q.answered(value)
        return value

    def commit(self, cmd: dict[str, Any]) -> Entry | None:
        """Record ``cmd``; from here on Escape no longer steps back in this part of the action. None when nothing
        was recorded (said). When the disk refused it (:meth:`BankerApp.write_refused`: a full disk, an I/O error)
        and it is the first thing this part of the action records, after a question the banker answered, nothing
        answered is lost: :class:`NotWritten` runs the flow again (:meth:`asking`) with the answers kept, and its
        last question (the confirmation, a proposal) is asked again with why on it: Enter records it once there is
        room; Escape and ``n`` do what they always do. Not after an earlier part was recorded (run again, the flow
        would record it twice)."""
        q = self.questions if self.stack else None
        again = q is not None and not q.committed and bool(q.answers) and not q.answers[-1].auto
        if q is not None:
            q.committed = True
        try:
            return self.app.record(cmd)
        except (Refused, SessionError) as e:
            if again and q is not None and self.app.write_refused(e):
                q.committed = False
                raise NotWritten(self.tr.session(e)) from None
            return None

    def auto_answered(self) -> bool:
        """Whether an answer of the questions under way was taken without asking (the player of the turn)."""
        return bool(self.stack) and any(a.auto for a in self.questions.answers)

    # ------------------------------------------------------------------ asking
    async def choose(self, title: str, choices: list[Choice], empty: str = "", default: Any = None,
                     auto: Any = NOTHING) -> Any:
        """The value of the choice picked (``default``, a value, listed first and highlighted); Escape steps back
        (:meth:`question`)."""
        return await self.question(lambda previous, back: ChooseScreen(title, choices, empty, default=default, back=back,
                                                                       current=previous), auto=auto)

    async def confirm(self, title: str, lines: Lines, confirm: str | None = None, danger: bool = False,
                      cancel: str | None = None) -> bool:
        """The confirmation: True to record; False: cancelled (``n``); Escape steps back to the last question asked
        (or cancels when nothing was asked). ``confirm`` and ``cancel``: the buttons' own words, where the usual
        ones would say the same as the action (Ukrainian "Скасувати" is both undo and cancel)."""
        ok: bool = await self.question(lambda _previous, back: ConfirmScreen(title, lines, confirm, danger=danger,
                                                                             back=back, cancel=cancel))
        return ok

    async def ask_player(self, title: str, exclude: tuple[str | None, ...] = (), bank: bool = False,
                         only: list[str] | None = None, default: str | None = None, auto: Any = NOTHING,
                         empty: str | None = None, check: Callable[[str], object] | None = None) -> str:
        """``empty``: what to say when nobody can be chosen (:meth:`no_players_said`); ``check``: the engine's check of
        each player (:meth:`player_check`), a player it refuses dimmed with its reason."""
        players = only if only is not None else list(self.state.active_players)
        choices = [self.player_choice(p, check) for p in players if p not in exclude]
        if bank and BANK not in exclude:
            choices.append(Choice(BANK, self.tr("bank.name")))
        player: str = await self.choose(title, choices, empty or self.tr("flow.no_players"), default=default, auto=auto)
        return player

    def player_choice(self, player: str, check: Callable[[str], object] | None) -> Choice:
        """``player`` with the cash, or dimmed with the engine's reason where ``check`` refuses the player."""
        if check is not None:
            try:
                check(player)
            except Refused as e:
                return Choice(player, player, enabled=False, note=self.tr.console_refusal(e))
        return Choice(player, player, note=self.fmt(self.state.cash[player]))

    def player_check(self, op: str, key: str) -> Callable[[str], object] | None:
        """The engine's check of a player for ``op``'s ``key``, where it refuses a player for who they are (None: it
        does not): in follow mode, the jail fine and a jail card only for a player in jail
        (:func:`check_jail_release`)."""
        state = self.state
        if (op, key) in (("jail_fine", "player"), ("jail_card", "player")):
            return lambda player: check_jail_release(state, player, fine=op == "jail_fine")
        return None

    def text_prompt(self, op: str, key: str, cmd: dict[str, Any]) -> str:
        """What a text question asks: a transfer's memo names who pays whom how much."""
        if (op, key) == ("transfer", "memo"):
            return self.tr("flow.transfer_memo", payer=self.tr.account(cmd["from"]), receiver=self.tr.account(cmd["to"]),
                           amount=self.fmt(cmd["amount"]))
        return self.tr("flow.memo")

    def default_player(self, op: str | None = None) -> str | None:
        """The player every player question highlights first: in follow mode, the one whose turn it is
        (issue #11, ``GameState.current``); None without follow mode (the turn does not move then). While a debt is open,
        for the ways of raising cash (:data:`DEBTOR_OPS`), the debtor. For a build, the player of the turn only when
        they may build now, else the first who may (every lot of the one whose turn it was said why not)."""
        state = self.state
        player = state.current if state.follow and not state.over else None
        if op in DEBTOR_OPS:
            # while a debt is open, the debtor raises the cash first (found playing: `m` highlighted another player)
            if state.debtors:
                return state.debtors[0]
        if op == "build" and (player is None or not self.may_build(player)):
            return next((p for p in self.owners() if self.may_build(p)), None)
        return player

    def player_default(self, op: str, key: str, cmd: dict[str, Any]) -> str | None:
        """The player a question for ``key`` highlights first: a debtor's trade, the first player the debtor owes (the
        raise-cash view's trade: deeds may go to the creditor against the debt), else :meth:`default_player`."""
        if (op, key) == ("trade", "to"):
            owed = [c for c, _amount, _why in self.state.debts.get(cmd.get("from", ""), ())
                    if c in self.state.active_players and c != cmd.get("from")]
            if owed:
                return owed[0]
        return self.default_player(op)

    def space_default(self, op: str, cmd: dict[str, Any]) -> int | None:
        """The space a landing's question highlights first, in follow mode: where the token of the player it is for
        (else the player whose turn it is) stands, a rent, a purchase or a tax typed by hand for the landing the bank
        already knows of; None otherwise (and when that space is not among the choices, nothing is)."""
        state = self.state
        if op not in ("rent", "buy", "tax") or not state.follow or state.over:
            return None
        who = cmd.get("payer") or cmd.get("player") or state.current
        return state.positions.get(who) if isinstance(who, str) else None

    def shortage_check(self, player: str) -> Callable[[Space], None]:
        """A lot of ``player``'s that can take what the shortage auction sells: a building legal there now (the
        engine's check), of a kind the bank is short of (:func:`no_shortage`); raises the refusal that says why not."""
        state = self.state

        def check(space: Space) -> None:
            kind = check_build(state, player, space)[0]
            refusal = no_shortage(state, kind, bidder=player)
            if refusal is not None:
                raise refusal

        return check

    def may_win_shortage(self, player: str) -> bool:
        """Whether ``player`` has a lot that could take what the shortage auction sells (:meth:`shortage_check`)."""
        check = self.shortage_check(player)
        for pos in self.state.deeds_of(player):
            try:
                check(self.state.edition.spaces[pos])
            except Refused:
                continue
            return True
        return False

    def may_build(self, player: str) -> bool:
        """Whether ``player`` may build on any lot now (the engine's own check)."""
        for pos in self.state.deeds_of(player):
            try:
                check_build(self.state, player, self.state.edition.spaces[pos])
            except Refused:
                continue
            return True
        return False

    async def ask_number(self, title: str, prompt: str, minimum: int = 1, maximum: int | None = None,
                         money: bool = False) -> int:
        shown = self.fmt if money else str
        number: int = await self.question(lambda previous, back: AskScreen(
            title, prompt, True, minimum, maximum, value="" if previous is None else str(previous), back=back,
            shown=shown))
        return number

    async def ask_text(self, title: str, prompt: str) -> str:
        text: str = await self.question(lambda previous, back: AskScreen(title, prompt, number=False, value=previous or "",
                                                                         back=back))
        return text

    def space_choice(self, pos: int, note: str = "", enabled: bool = True) -> Choice:
        return Choice(pos, self.state.edition.spaces[pos].name, enabled, note)

    def lot_choices(self, player: str, check: Callable[[Space], object], note: Callable[[int], str],
                    offered: Callable[[Space], bool] = lambda space: True) -> list[Choice]:
        """The player's lots that are ``offered``: enabled where ``check`` passes, else with the engine's reason."""
        out = []
        for pos in sorted(self.state.deeds_of(player)):
            space = self.state.edition.spaces[pos]
            if not offered(space):
                continue
            try:
                check(space)
            except Refused as e:
                out.append(self.space_choice(pos, self.tr.refusal(e), enabled=False))
                continue
            out.append(self.space_choice(pos, note(pos)))
        return out

    async def ask_missing(self, cmd: dict[str, Any], title: str, only: tuple[str, ...] | None = None) -> None:
        """Ask, in the op's order, for every key ``cmd`` lacks that the op needs or the console asks
        about (:func:`banker.rules.ops.asked`), each by its kind; ``only``: just those keys.

        Escape steps back one question (:meth:`question`): the flow runs again with the answers before it
        kept, so what the earlier answers make needed or not is worked out again."""
        for f in ops.spec(cmd["op"]).fields:
            if f.key in cmd or (only is not None and f.key not in only):
                continue
            if f.fill is not None:
                cmd[f.key] = f.fill
            elif ops.asked(self.state, cmd, f):
                value = await self.ask(f, cmd, title)
                if value is not LEAVE_OUT:
                    cmd[f.key] = value

    async def ask(self, f: FieldSpec, cmd: dict[str, Any], title: str, auto: Any = NOTHING) -> Any:
        """Ask for one field by its kind (``auto``: a player taken without asking, see :meth:`question`)."""
        op = cmd["op"]
        kind = f.kind
        if kind in ("player", "account"):
            return await self.ask_player(self.player_title(op, f.key, cmd, title), exclude=self.excluded(op, f.key, cmd),
                                         bank=kind == "account", only=self.players_for(op),
                                         default=self.player_default(op, f.key, cmd), auto=auto,
                                         empty=self.no_players_said(op), check=self.player_check(op, f.key))
        if kind == "space":
            choices, empty = self.space_choices(op, cmd)
            if isinstance(cmd.get("player"), str):  # "Buy: Ann", over the deeds Ann may buy
                title = self.tr("flow.for_player", title=title, player=cmd["player"])
            return await self.choose(title, choices, empty, default=self.space_default(op, cmd))
        if kind == "amount":
            prompt, low, high = self.amount_bounds(op, f, cmd)
            return await self.ask_number(title, prompt, low, high, money=f.key in MONEY_KEYS)
        if kind == "dice":
            low, high = dice_range(self.state)
            prompt = self.tr("flow.dice_fresh" if cmd.get("card") else "flow.dice_total", low=low, high=high)
            return await self.ask_number(title, prompt, low, high)
        if kind == "text":
            return await self.ask_text(title, self.text_prompt(op, f.key, cmd))
        if kind == "flag":
            if (op, f.key) == ("card", "passed_go") and self.state.follow:
                return LEAVE_OUT  # in follow mode the engine moves the token: it knows whether it passes GO
            no, yes = FLAG_LABELS[(op, f.key)]
            if (op, f.key) == ("card", "passed_go"):  # the question itself, not only "Card" over two answers
                to = self.state.edition.cards[cmd["card"]].effect["to"]
                title = self.tr("flow.passed_go_q", player=cmd["player"], space=self.state.edition.spaces[to].name)
            # follow mode: the other setting first (what `F` is pressed for), not the one the game is in
            default = (not self.state.follow) if (op, f.key) == ("follow", "on") else None
            return await self.choose(title, [Choice(False, self.tr(no)), Choice(True, self.tr(yes))], default=default)
        if kind == "choice":
            return await self.ask_choice(op, cmd)
        if kind == "roll":  # follow mode (issue #11): the two white dice, typed "3 5" or "35"
            text = await self.ask_text(title, self.tr("flow.roll_dice"))
            return [int(c) for c in text if c.isdigit()]
        if kind == "speed":
            return await self.choose(self.tr("flow.speed_face"), [
                Choice(face, self.tr.msg(Msg(f"speed.{face}")) if isinstance(face, str) else str(face))
                for face in SPEED_FACES])
        if kind == "card-case":
            return await self.ask_card_case(cmd, title)
        if kind == "card":
            return await self.ask_card(cmd)
        if kind == "jail-card":
            state = self.state
            return await self.choose(self.tr("flow.which_jail_card", player=cmd["player"]), [
                Choice(c, self.tr("flow.jail_card_of", deck=state.edition.decks[state.edition.cards[c].deck]))
                for c in state.jail_cards_of(cmd["player"])])
        raise LookupError(f"the console has no question for {op}'s {f.key!r} ({kind})")  # a new kind: ask it here

    # -- the words and offers of each question
    def player_title(self, op: str, key: str, cmd: dict[str, Any], title: str) -> str:
        match op, key:
            case ("auction", "winner") | ("building_auction", "player"):
                return self.tr("flow.who_won")
            case ("rent", "payer") | ("tax", "player"):
                return self.tr("flow.who_landed", space=self.state.edition.spaces[cmd["space"]].name)
            case ("transfer", "from"):
                return self.tr("flow.who_pays")
            case ("transfer", "to"):  # each question says the answers before it
                return self.tr("flow.who_receives_from", payer=self.tr.account(cmd["from"], in_text=True))
            case ("trade", "from"):
                return self.tr("trade.first")
            case ("trade", "to"):
                return self.tr("trade.second")
        return title

    def excluded(self, op: str, key: str, cmd: dict[str, Any]) -> tuple[str | None, ...]:
        match op, key:
            case ("rent", "payer"):
                return (self.state.lots[cmd["space"]].owner,)
            case ("transfer" | "trade", "to"):
                return (cmd["from"],)
        return ()

    def players_for(self, op: str) -> list[str] | None:
        """Who may be chosen (None: every active player)."""
        state = self.state
        match op:
            case "building_auction":  # who could put the building won on a lot (found playing: anyone with a deed)
                return [p for p in state.active_players if self.may_win_shortage(p)]
            case "build" | "mortgage":
                return self.owners()
            case "sell_building":
                return [p for p in state.active_players if any(state.level(d) for d in state.deeds_of(p))]
            case "unmortgage":
                return [p for p in state.active_players if any(state.lots[d].mortgaged for d in state.deeds_of(p))]
            case "jail_card":
                return [p for p in state.active_players if state.jail_cards_of(p)]
            case "bankrupt":
                return state.debtors
        return None

    def no_players_said(self, op: str) -> str:
        """Why nobody can be chosen for ``op`` (:meth:`players_for` gave none): what is missing, not only that
        nobody can be ("No player owes a debt: a bankruptcy follows a debt ...")."""
        key = {"build": "owners", "building_auction": "owners", "mortgage": "owners"}.get(op, op)
        return self.tr.get(f"flow.no_players_{key}", self.tr("flow.no_players"))

    def owners(self) -> list[str]:
        return [p for p in self.state.active_players if self.state.deeds_of(p)]

    def space_choices(self, op: str, cmd: dict[str, Any]) -> tuple[list[Choice], str]:
        """The spaces offered, and what to say when there are none."""
        state = self.state
        player: str = cmd.get("player", "")
        match op:
            case "buy":
                return self.unowned_choices(player or None, True), self.tr("flow.nothing_to_buy")
            case "deal":
                return self.unowned_choices(player or None, True), ""
            case "auction":  # the deeds waiting for the bank's auction (a bankruptcy to the bank) first
                return sorted(self.unowned_choices(None, False), key=lambda c: c.value not in state.pending_auction), \
                    self.tr("flow.nothing_to_buy")
            case "rent":
                choices = []
                for pos, lot in sorted(state.lots.items()):
                    if lot.owner is None:
                        continue
                    note = lot.owner + (" · " + self.tr("deed.mortgaged") if lot.mortgaged else "")
                    choices.append(self.space_choice(pos, note, enabled=not lot.mortgaged))
                return choices, self.tr("flow.nothing_owned")
            case "tax":
                return [self.space_choice(s.position, self.fmt(s.tax)) for s in state.edition.spaces if s.kind == "tax"], ""
            case "build":
                return self.lot_choices(player, lambda s: check_build(state, player, s), self.build_note,
                                        offered=_is_street), self.tr("flow.nothing_to_build", player=player)
            case "building_auction":
                return self.lot_choices(player, self.shortage_check(player),
                                        lambda pos: self.fmt(state.edition.spaces[pos].house_cost), offered=_is_street), ""
            case "mortgage":
                return self.lot_choices(player, lambda s: check_mortgage(state, player, s),
                                        lambda pos: "+" + self.fmt(state.edition.spaces[pos].mortgage)), \
                    self.tr("flow.nothing_to_mortgage")
            case "unmortgage":
                return self.lot_choices(player, lambda s: None, lambda pos: "-" + self.fmt(lift_cost(state, pos)),
                                        offered=lambda s: state.lots[s.position].mortgaged), \
                    self.tr("flow.nothing_mortgaged")
            case "place" | "roll":  # follow mode: any space of the board
                return [self.space_choice(s.position) for s in state.edition.spaces], ""
        raise LookupError(f"the console offers no spaces for {op}")  # a new op with a space: offer them here

    def build_note(self, pos: int) -> str:
        kind, price = check_build(self.state, self.state.lots[pos].owner or "", self.state.edition.spaces[pos])
        return self.tr(f"flow.build_{kind}", amount=self.fmt(price))

    def unowned_choices(self, player: str | None, buying: bool) -> list[Choice]:
        out = []
        for pos, lot in sorted(self.state.lots.items()):
            if lot.owner is not None:
                continue
            space = self.state.edition.spaces[pos]
            if pos in self.state.pending_auction:  # for the bank's auction only: never bought at the printed price
                out.append(self.space_choice(pos, self.tr("flow.pending"), enabled=not buying))
                continue
            affordable = player is None or self.state.cash[player] >= space.price
            note = self.fmt(space.price)
            if buying and not affordable and player is not None:  # said, so the dialog never reads as "nothing to buy"
                note = self.tr("picker.more_than_cash", price=note, player=player, cash=self.fmt(self.state.cash[player]))
            out.append(self.space_choice(pos, note, enabled=affordable or not buying))
        return out

    def amount_bounds(self, op: str, f: FieldSpec, cmd: dict[str, Any]) -> tuple[str, int, int | None]:
        """The prompt of an amount, its lowest and its highest value (None: no bound)."""
        state = self.state
        match op, f.key:
            case ("auction", "bid"):
                winner = cmd["winner"]
                cash = state.cash[winner]
                return (self.tr("flow.winning_bid", player=winner, cash=self.fmt(cash)),
                        state.edition.rules.property_auction_min_bid, cash)
            case ("building_auction", "bid"):
                player = cmd["player"]
                cash = state.cash[player]
                low = auction_min_bid(state, state.edition.spaces[cmd["space"]])
                return self.tr("flow.winning_bid", player=player, cash=self.fmt(cash)), low, cash
            case ("transfer", "amount"):
                payer, receiver = self.tr.account(cmd["from"]), self.tr.account(cmd["to"])
                if cmd["from"] == BANK:
                    return self.tr("flow.transfer_amount_bank", payer=payer, receiver=receiver), 1, None
                cash = state.cash[cmd["from"]]
                return self.tr("flow.transfer_amount", payer=payer, receiver=receiver, cash=self.fmt(cash)), 1, cash
        return self.tr("flow.amount"), f.minimum or 0, None

    async def ask_choice(self, op: str, cmd: dict[str, Any]) -> str:
        state = self.state
        if op == "tax":
            # The choice comes first; the worth is added up only after it (us-classic-rules.txt).
            space = state.edition.spaces[cmd["space"]]
            chosen: str = await self.choose(
                self.tr("flow.tax_choose", player=cmd["player"], space=space.name),
                [Choice("flat", self.tr("flow.tax_flat", amount=self.fmt(space.tax))),
                 Choice("percent", self.tr("flow.tax_percent", pct=space.tax_percent))])
            return chosen
        if op == "card":
            # the choice printed on the card ("Pay a £10 fine or take a Chance")
            card = state.edition.cards[cmd["card"]]
            deck = state.edition.decks[card.effect["deck"]]
            chosen = await self.choose(self.tr("flow.card_choice", player=cmd["player"]), [
                Choice("pay", self.tr("flow.card_pay", amount=self.fmt(card.effect["amount"]))),
                Choice("draw", self.tr("flow.card_draw", deck=deck))])
            return chosen
        raise LookupError(f"the console has no question for the choice of {op}")  # a new choice: ask it here

    async def ask_card_case(self, cmd: dict[str, Any], title: str) -> Any:
        """Landed on a railroad or a utility by the dice, or sent there by a Chance card?"""
        if cmd.get("_quick"):
            return LEAVE_OUT  # a typed rent does not ask "by the card?"
        kind = self.state.edition.spaces[cmd["space"]].kind
        by_card = await self.choose(title, [Choice(False, self.tr("flow.landed_by_dice")),
                                            Choice(True, self.tr(f"flow.card_{kind}"))])
        return f"nearest-{kind}" if by_card else LEAVE_OUT

    async def ask_card(self, cmd: dict[str, Any]) -> str:
        state = self.state
        only_deck = cmd.get("_deck")  # the card drawn instead of paying (a card's choice)
        typed = cmd.get("_cards")  # the cards the command line's words fit ("карточка аня освобод": either deck's)
        choices = []
        for card in state.edition.cards.values():
            if only_deck and card.deck != only_deck or typed and card.id not in typed:
                continue
            holder = state.jail_cards.get(card.id)
            deck = state.edition.decks[card.deck]
            # "→": the card's own text ends, what it does begins (a wrapped line read "… или продать  храните, пока …")
            note = "→ " + self.tr.msg(describe_effect(state, card))
            if holder:
                note = self.tr("flow.card_held", player=holder)
            choices.append(Choice(card.id, f"{deck}: {card.text}", enabled=holder is None, note=note))
        which = (self.tr("flow.which_card_of", deck=state.edition.decks[only_deck]) if only_deck
                 else self.tr("flow.which_card"))
        card_id: str = await self.choose(which, choices)
        return card_id

    # ------------------------------------------------------------------ preview and commit
    def preview_lines(self, cmd: dict[str, Any]) -> tuple[Lines, Move]:
        """What the command would do (``GameState.preview``): the description and every money movement."""
        state = self.state
        move = state.preview(cmd)
        lines: Lines = [self.tr.parts(move.parts)]
        for e in move.effects:
            if isinstance(e, Pay):
                line = Text("  ")
                line.append(self.tr.account(e.src), "bold")
                line.append(" → ")
                line.append(self.tr.account(e.dst), "bold")
                line.append(f"  {self.fmt(e.amount)}", "bold green")
                lines.append(line)
            elif isinstance(e, Owner):
                lines.append(Text("  " + self.tr("flow.deed_moves", space=state.edition.spaces[e.space].name,
                                                  owner=self.tr.account(e.new or BANK)), "cyan"))
            elif isinstance(e, Debt) and e.new and len(e.new) > len(e.old):
                c = e.new[-1]
                lines.append(Text("  " + self.tr("flow.debt_opens", player=e.player, amount=self.fmt(c.amount),
                                                  creditor=self.tr.account(c.creditor, in_text=True)), "bold red"))
        return lines, move

    async def confirm_and_commit(self, cmd: dict[str, Any], title: str, danger: bool = False,
                                 notes: Lines | None = None) -> Entry | None:
        """Preview, confirm, commit. A player taken from the turn is said (Escape there asks for the player).
        ``notes``: lines said under the preview (why a larger way was not offered). The console's own keys (``_deck``,
        ``_cards``...: what a flow knew while it asked) are taken out of ``cmd`` first: never previewed or recorded."""
        for key in [k for k in cmd if k.startswith("_")]:
            del cmd[key]
        try:
            lines, _move = self.preview_lines(cmd)
        except Refused as e:
            self.app.refuse(e)
            return None
        lines = [*lines, *(notes or [])]
        if self.auto_answered():
            lines = [*lines, Text(self.tr("turn.defaulted", player=cmd.get("player", "")), "dim italic")]
        if not await self.confirm(title, lines, danger=danger):
            raise Cancelled
        return self.commit(cmd)

    # ------------------------------------------------------------------ the flows
    def flows(self) -> dict[str, FlowFn]:
        """The ops and dialogs with flows of their own; every other op is :meth:`flow_simple`."""
        return {"deal": self.flow_deal, "tax": self.flow_tax, "card": self.flow_card, "build": self.flow_build,
                "auction": self.flow_auction,
                "sell_building": self.flow_sell_building, "building_auction": self.flow_building_auction,
                "trade": self.flow_trade, "debt": self.flow_debt, "bankrupt": self.flow_bankrupt, "undo": self.flow_undo,
                "end_game": self.flow_end_game, "count": self.flow_count, "roll": self.flow_roll,
                "settle": self.flow_settle}

    async def run(self, op: str, given: dict[str, Any] | None = None) -> Entry | None:
        cmd: dict[str, Any] = dict(given or {})
        cmd["op"] = op
        title = self.tr.get(f"action.{op}", "") or self.tr(f"turn.{op}")
        try:
            if self.state.over and op != "undo":
                self.app.show_message(self.tr("flow.game_over"), error=True)
                return None
            refusal = self.not_now(op)
            if refusal is not None:  # said before the first question, not after the player and the lot are asked
                self.app.refuse(refusal)
                return None
            return await self.asking(self.flows().get(op, self.flow_simple), cmd, title)
        except Cancelled:
            self.app.show_message(self.tr("flow.cancelled"))
            return None
        finally:
            # what was typed on the table for a roll: taken by the roll's question once it is on screen; however
            # the action ends (refused before any question, cancelled, failed), the table's keys are its own again
            # (a no-op once the question took them)
            release_typed(given)

    def not_now(self, op: str) -> Refused | None:
        """Why nobody can take ``op`` now, whatever the answers would be (the engine's own check); else None."""
        match op:
            case "free_parking":
                return no_pot(self.state)
            case "building_auction":
                return no_shortage_now(self.state)
        return None

    async def flow_simple(self, cmd: dict[str, Any], title: str) -> Entry | None:
        """Ask for what the op needs, show what it will do, commit. In follow mode the player of
        :data:`TURN_PLAYER_OPS` is the one whose turn it is, taken without asking: Escape on the confirmation
        asks for the player (:meth:`question`'s ``auto``)."""
        player = self.turn_player(cmd)
        if player is not None:
            f = next(f for f in ops.spec(cmd["op"]).fields if f.key == "player")
            cmd["player"] = await self.ask(f, cmd, title, auto=player)
        await self.ask_missing(cmd, title)
        cmd.pop("_quick", None)
        return await self.confirm_and_commit(cmd, title)

    def turn_player(self, cmd: dict[str, Any]) -> str | None:
        """Follow mode: the player whose turn it is, for an op of :data:`TURN_PLAYER_OPS` that lacks its player,
        when the engine would take the command with it (a fine only for a player in jail); else None."""
        player = self.default_player()
        if cmd["op"] not in TURN_PLAYER_OPS or "player" in cmd or player is None:
            return None
        allowed = self.players_for(cmd["op"])
        if allowed is not None and player not in allowed:
            return None
        trial = {**{k: v for k, v in cmd.items() if not k.startswith("_")}, "player": player}
        for f in ops.spec(cmd["op"]).fields:
            if f.key not in trial and f.fill is not None:
                trial[f.key] = f.fill
        try:
            if not ops.missing(self.state, trial):
                self.state.preview(trial)
        except Refused:
            return None
        return player

    # ------------------------------------------------------------------ follow mode: the roll and the proposal
    def speed_use(self) -> str:
        """How the Speed Die counts in the current player's roll (see :func:`.screens.turn.parse_roll`)."""
        state = self.state
        if not state.variant.speed_die:
            return "none"
        player = state.current
        if player is not None and state.passed_go[player] and not state.in_jail[player]:
            return "needed"
        return "ignored"

    def roll_preview(self, typed: dict[str, Any]) -> tuple[str, bool]:
        """What a typed roll would do (the engine's sentence), or why it is refused; the Bus's move and three of a
        kind's space are asked after Enter."""
        cmd = {"op": "roll", **typed}
        d1, d2 = typed["dice"]
        if typed.get("speed") == "bus" and self.speed_use() == "needed":
            return self.tr("turn.roll_bus_next"), True
        if free_move_asked(self.state, (d1, d2), typed.get("speed")) and self.speed_use() == "needed":
            return self.tr("turn.roll_triple_next"), True
        try:
            move = self.state.preview(cmd)
        except Refused as e:
            return self.tr.refusal(e), False
        return self.tr.parts(move.parts), True

    async def flow_roll(self, cmd: dict[str, Any], title: str) -> Entry | None:
        """The roll: the dice typed (the first often with the key that opened the question), what it does shown
        as it is typed; Enter records it (the token moves, a salary passing GO is paid in the same entry); then
        what the landing requires is proposed (:meth:`flow_settle`)."""
        # what was typed on the table for it: taken by the roll's question once it is on screen (the keys typed
        # until then are the table's to keep, never another action's; :meth:`run` gives them back however it ends)
        return await self._roll(cmd, title, cmd.pop("_typed", ""))

    async def _roll(self, cmd: dict[str, Any], title: str, typed: Any) -> Entry | None:
        state = self.state
        cmd.pop("_quick", None)
        if not state.follow:
            self.app.show_message(self.tr("turn.follow_off"), error=True)
            return None
        if state.pending is not None:
            # the landing still requires something: said, and settled only by Enter on the table. The proposal is not
            # opened from here: the rest of the dice typed in one burst (the second die, Enter) would reach it, and
            # that Enter would record what was proposed (a purchase) when the banker meant a roll
            self.app.show_message(self.tr("turn.roll_waits", what=self.tr.msg(describe(state, state.pending))),
                                  error=True)
            return None
        player = state.current or ""
        if "dice" not in cmd:
            speed = self.speed_use()
            if state.in_jail[player]:
                prompt = self.tr("turn.roll_jail", player=player, n=state.jail_turns[player],
                                 m=state.edition.rules.jail_attempts)
            else:
                prompt = self.tr("turn.roll_prompt_speed" if speed == "needed" else "turn.roll_prompt")
            value = await self.question(lambda previous, back: RollScreen(
                self.tr("turn.roll_title", player=player), prompt, typed if previous is None else roll_text(previous), speed,
                self.roll_preview, back=back))
            cmd.update(value)
        if self.speed_use() == "needed":
            d1, d2 = cmd["dice"]
            if cmd.get("speed") == "bus" and "move" not in cmd:
                moves = sorted({d1, d2, d1 + d2})
                cmd["move"] = await self.choose(self.tr("turn.bus_title", player=player), [
                    Choice(n, self.tr("turn.bus_both" if n == d1 + d2 else "turn.bus_one", n=n),
                           note=state.edition.spaces[(state.positions[player] + n) % len(state.edition.spaces)].name)
                    for n in moves])
            elif free_move_asked(state, (d1, d2), cmd.get("speed")) and "to" not in cmd:  # not a third doubles: jail
                cmd["to"] = await self.choose(self.tr("turn.triple_title", player=player),
                                              [self.space_choice(s.position) for s in state.edition.spaces])
        entry = self.commit(cmd)
        if entry is None:
            return None
        if state.pending is not None:  # else the roll's own sentence stays on the message line (its salary, its turn)
            await self.flow_settle({}, title)
        return entry

    async def flow_settle(self, cmd: dict[str, Any], title: str) -> Entry | None:
        """What the landing requires, proposed one after the other (a card's move may require the next): Enter
        records each as proposed; Escape leaves it for later (Enter on the table offers it again)."""
        state = self.state
        if not state.follow:
            self.app.show_message(self.tr("turn.follow_off"), error=True)
            return None
        entry = None
        for _ in range(MAX_PROPOSALS):
            due = state.pending
            if due is None:
                if entry is None and state.pending_auction:  # a bankruptcy to the bank: its auction comes first
                    return await self.flow_auction({"op": "auction", "space": min(state.pending_auction)},
                                                   self.tr("action.auction"))
                if entry is None:
                    self.app.show_message(self.tr("turn.nothing_due", player=state.current or ""))
                return entry
            try:
                done = await self.asking(self.settle, {}, title)  # its questions its own: Escape on the first, later
            except Cancelled:
                done = None
            if done is None:
                if state.pending is not None:
                    self.app.show_message(self.tr("turn.later_said", what=self.tr.msg(describe(state, state.pending))))
                return entry
            entry = done
        return entry

    async def settle(self, _cmd: dict[str, Any], _title: str) -> Entry | None:
        """The proposal of what the landing requires (``GameState.pending``): straight to the question it needs (the
        card drawn, the income tax's choice, the fresh roll, the bank's auction), or shown with who pays whom and
        recorded on Enter."""
        state = self.state
        due = state.pending
        assert due is not None  # flow_settle settles what is pending
        what = self.tr.msg(describe(state, due))
        cmd: dict[str, Any] = dict(due.command)
        needs = list(due.needs)
        if "card" in needs:
            cmd["_deck"] = due.deck
            return await self.flow_card(cmd, what)
        if "choice" in needs:
            return await self.flow_tax(cmd, what)
        if "winner" in needs:
            return await self.flow_auction(cmd, what)
        if "dice" in needs:
            low, high = dice_range(state)
            cmd["dice"] = await self.ask_number(what, self.tr("flow.dice_fresh", low=low, high=high), low, high)
        space = state.edition.spaces[due.space]
        auction = due.kind in ("buy", "advance") and cmd.get("op") == "buy"
        card = due.kind == "jail_fine" and bool(state.jail_cards_of(due.player))
        try:
            lines, _move = self.preview_lines(cmd)
            can = True
        except Refused as e:  # cannot be recorded as proposed (a deed dearer than the cash): said, the auction offered
            lines, can = [Text(what, "bold"), Text(self.tr.refusal(e), "bold red")], False
        keys = [self.tr("turn.key_accept")] if can else []
        if auction:
            keys.append(self.tr("turn.key_auction"))
        if card:
            keys.append(self.tr("turn.key_card"))
        keys.append(self.tr("escape.proposal_back" if self.questions.can_step_back else "turn.key_later"))
        lines = [*lines, Text(" · ".join(keys), "dim")]
        title = self.tr("turn.proposal_title", player=due.player, space=space.name)
        chosen = await self.question(lambda _previous, back: ProposalScreen(title, lines, can, auction, card, back=back))
        if chosen == "accept":
            return self.commit(cmd)
        if chosen == "auction":
            return await self.flow_auction({"op": "auction", "space": due.space}, self.tr("action.auction"))
        if chosen == "card":
            return await self.flow_simple({"op": "jail_card", "player": due.player}, self.tr("action.jail_card"))
        return None

    async def flow_deal(self, cmd: dict[str, Any], title: str) -> Entry | None:
        if not self.state.variant.deal_deeds:
            self.app.show_message(self.tr("flow.no_deal"), error=True)
            return None
        if "player" not in cmd and "space" not in cmd:
            # shuffle and deal to everyone, as the books say
            # one shuffle for the action: asked again (the disk refused the first deed), the same deal is shown
            asked = self.questions  # a flow runs with questions of its own (run: asking)
            if asked.seed is None:
                asked.seed = self.app.random_seed()
            plan = deal_plan(self.state, seed=asked.seed)
            if not plan:
                self.app.show_message(self.tr("flow.dealt_already"), error=True)
                return None
            lines: Lines = [self.tr("flow.deal_line", player=c["player"], space=self.state.edition.spaces[c["space"]].name,
                                    amount=self.fmt(self.state.edition.spaces[c["space"]].price)) for c in plan]
            if not await self.confirm(title, lines):
                raise Cancelled
            for c in plan:
                # a deed not recorded (the disk filled after the first) ends the deal there: the next deed, a
                # shorter line, could still fit, and the deal be recorded with a deed missing from its middle; the
                # deeds left are dealt by the next `n`
                if self.commit(c) is None:
                    break
            return None
        return await self.flow_simple(cmd, title)

    async def flow_tax(self, cmd: dict[str, Any], title: str) -> Entry | None:
        await self.ask_missing(cmd, title)  # the space, who landed, and (US Income Tax) the choice
        if not self.state.edition.spaces[cmd["space"]].tax_percent:
            return await self.confirm_and_commit(cmd, title)
        entry = self.commit(cmd)  # chosen: committed at once, then the figures are shown
        if entry:
            info = entry.info
            lines: Lines = [self.tr.entry(entry),
                            self.tr("flow.tax_worth", worth=self.fmt(info["worth"])),
                            self.tr("flow.tax_due", amount=self.fmt(info["amount"])),  # paid, or owed: the entry says which
                            self.tr("flow.tax_other", amount=self.fmt(info["other_amount"]))]
            await self.app.push_screen_wait(InfoScreen(title, lines))
        return entry

    async def flow_card(self, cmd: dict[str, Any], title: str) -> Entry | None:
        state = self.state
        await self.ask_missing(cmd, title)  # who drew, the card, passed GO on an advance, a printed choice
        card = state.edition.cards.get(cmd["card"])
        entry = await self.confirm_and_commit(cmd, title)
        if entry and card and card.choices and cmd.get("choice") == "draw":
            # then the card drawn from that deck, as one more action
            deck_id = card.effect["deck"]
            # its own title: the deck it is drawn from ("Taras draws a Chance card"), not the first card's
            drawn = self.tr.msg(Msg("due.card", player=cmd["player"], deck=state.edition.decks[deck_id]))
            try:  # questions of its own: Escape on its first one leaves it for later
                return await self.asking(self.flow_card, {"op": "card", "player": cmd["player"], "_deck": deck_id}, drawn)
            except Cancelled:
                self.app.show_message(self.tr("flow.draw_later", deck=state.edition.decks[deck_id]))
        return entry

    async def flow_auction(self, cmd: dict[str, Any], title: str) -> Entry | None:
        """The auction run by the console (:class:`AuctionScreen`): the bidders, the bids, who passed;
        a line that names the winner and the bid (``auction boardwalk ann 300``) is recorded as typed."""
        await self.ask_missing(cmd, title, only=("space",))
        if "winner" in cmd:
            return await self.flow_simple(cmd, title)
        space = cmd["space"]
        # the answer keeps the whole auction (_bidding): stepped back to, it comes back as it was left
        result = await self.question(lambda previous, back: AuctionScreen(space, previous=previous, back=back))
        return await self.confirm_and_commit(dict(result), title)  # a copy: the answer keeps its _bidding

    async def flow_build(self, cmd: dict[str, Any], title: str) -> Entry | None:
        """One building, or several on the lot's group in one action (``upto``: every lot up to a
        level, evenly): the ways the engine accepts are offered with their cost, and the
        confirmation lists each lot and the total."""
        typed = "space" in cmd and cmd.pop("_quick", False)  # "build park" on the command line: one building
        await self.ask_missing(cmd, title, only=("player", "space"))
        cmd.pop("_quick", None)
        notes: Lines = []
        if "each" not in cmd and "upto" not in cmd and not typed:
            options = self.build_options(cmd)
            if sum(c.enabled for c in options) > 1:
                space = self.state.edition.spaces[cmd["space"]]
                group = self.tr.group(self.state.edition, space.group or "")
                chosen = await self.choose(self.tr("build_group.how_many", group=group), options)
                if chosen:
                    cmd["upto"] = chosen
            else:  # one way only, not asked: why not the next larger one, when it was refused (found playing: the last
                # hotels refused on the whole group, and nothing said why "a hotel on every lot" was not offered)
                refused = next((c for c in options if c.value and not c.enabled), None)
                if refused is not None:
                    notes = [Text(f"{refused.label}: {refused.note}", "dim italic")]
        if "each" not in cmd and "upto" not in cmd:
            return await self.confirm_and_commit(cmd, title, notes=notes)
        try:
            move = self.state.preview(cmd)
        except Refused as e:
            self.app.refuse(e)
            return None
        if not await self.confirm(title, self.build_lines(move)):
            raise Cancelled
        return self.commit(cmd)

    def build_options(self, cmd: dict[str, Any]) -> list[Choice]:
        """One building on the lot (value 0), then every lot of the group up to each level the engine
        accepts (the value: the level), each with its cost; a level refused shows the engine's reason."""
        state = self.state
        space = state.edition.spaces[cmd["space"]]
        player = cmd["player"]
        out: list[Choice] = []
        try:
            kind, price = check_build(state, player, space)
        except Refused as e:
            return [Choice(0, space.name, enabled=False, note=self.tr.refusal(e))]
        out.append(Choice(0, self.tr(f"build_group.one_{kind}", space=space.name), note=self.fmt(price)))
        top = state.houses_before_hotel + 1
        group = state.group_positions(space.group)
        low = min(state.level(p) for p in group)
        for level in range(low + 1, top + 1):
            trial = {"op": "build", "player": player, "space": space.position, "upto": level}
            label = (self.tr("build_group.hotels") if level == top else self.tr("build_group.upto", n=level))
            try:
                move = state.preview(trial)
            except Refused as e:
                out.append(Choice(level, label, enabled=False, note=self.tr.refusal(e)))
                continue
            if sum(v["houses"] + v["hotel"] for v in move.info["lots"].values()) <= 1:
                continue  # the same as one building
            out.append(Choice(level, label, note=self.fmt(move.info["price"])))
        return out

    def build_lines(self, move: Move) -> Lines:
        """Each lot built on, what goes on it and its cost, then the total and the bank's stock after."""
        state = self.state
        lines: Lines = [Text(self.tr.parts(move.parts), "bold")]
        for pos, built in move.info["lots"].items():
            space = state.edition.spaces[int(pos)]
            cost = (built["houses"] + built["hotel"]) * space.house_cost
            what = self.tr("build_group.lot_houses", n=built["houses"]) if built["houses"] else ""
            if built["hotel"]:
                what = self.tr("build_group.lot_hotel") if not what else self.tr("build_group.and_hotel", houses=what)
            line = Text(f"  {space.name}: ")
            line.append(what, "cyan")
            line.append(f"  {self.fmt(cost)}")
            lines.append(line)
        houses = sum(e.houses for e in move.effects if isinstance(e, Stock))
        hotels = sum(e.hotels for e in move.effects if isinstance(e, Stock))
        lines.append(Text(self.tr("build_group.total", amount=self.fmt(move.info["price"])), "bold green"))
        lines.append(self.tr("build_group.stock_after", houses=state.bank_houses + houses, hotels=state.bank_hotels + hotels))
        return lines

    async def flow_building_auction(self, cmd: dict[str, Any], title: str) -> Entry | None:
        state = self.state
        await self.ask_missing(cmd, title, only=("player", "space"))
        p = cmd["player"]
        try:
            kind = check_build(state, p, state.edition.spaces[cmd["space"]])[0]
        except Refused as e:
            self.app.refuse(e)
            return None
        refusal = no_shortage(state, kind, bidder=p)
        if refusal is not None:  # said before the bid is asked for
            self.app.refuse(refusal)
            return None
        await self.ask_missing(cmd, title)  # the bid
        return await self.confirm_and_commit(cmd, title)

    async def flow_sell_building(self, cmd: dict[str, Any], title: str) -> Entry | None:
        state = self.state
        await self.ask_missing(cmd, title, only=("player",))
        p = cmd["player"]
        if "space" not in cmd:
            def check(space: Space) -> None:
                check_sale(state, p, space)
                default_sale(state, space)

            def note(pos: int) -> str:
                return "+" + self.fmt(default_sale(state, state.edition.spaces[pos])[1])

            choices = self.lot_choices(p, check, note, offered=lambda s: s.kind == "street" and bool(state.level(s.position)))
            # every building of a group at once ("All houses on one color-group may be sold at once")
            for pos, amount in legal_group_sales(state, p):
                group = self.tr.group(state.edition, state.edition.spaces[pos].group or "")
                choices.append(Choice(("all", pos), self.tr("flow.sell_all", group=group), note="+" + self.fmt(amount)))
            value = await self.choose(title, choices, self.tr("flow.nothing_to_sell"))
            if isinstance(value, tuple):
                cmd["all"] = True
                value = value[1]
            cmd["space"] = value
        if not cmd.get("all") and "houses" not in cmd and state.lots.get(cmd["space"]) and state.lots[cmd["space"]].hotel:
            options = self.hotel_sale_choices(cmd)
            if len(options) > 1:
                houses = await self.choose(self.tr("flow.hotel_sale", space=state.edition.spaces[cmd["space"]].name),
                                           options)
                if houses >= 0:
                    cmd["houses"] = houses
        return await self.confirm_and_commit(cmd, title)

    def hotel_sale_choices(self, cmd: dict[str, Any]) -> list[Choice]:
        """The legal ways to sell a hotel (how many houses stay; RU: whole, with the group's other hotels), each
        tried on the engine; the edition's default first, as the value -1."""
        state = self.state
        hbh = state.houses_before_hotel
        out: list[Choice] = []
        seen: set[int] = set()
        for houses in (None, *range(hbh, -1, -1)):
            trial = {k: v for k, v in cmd.items() if k != "houses"}
            if houses is not None:
                trial["houses"] = houses
            try:
                move = state.preview(trial)
            except Refused:
                continue
            left = next((e.new for e in move.effects if isinstance(e, Houses) and e.space == cmd["space"]), 0)
            if left in seen:
                continue
            seen.add(left)
            hotels = sum(1 for e in move.effects if isinstance(e, Hotel))
            if left:
                label = self.tr("flow.hotel_keep", n=left)
            elif hotels > 1:
                label = self.tr("flow.hotels_whole", n=hotels)
            else:
                label = self.tr("flow.hotel_whole")
            out.append(Choice(-1 if houses is None else houses, label, note="+" + self.fmt(move.info["proceeds"])))
        return out

    async def flow_trade(self, cmd: dict[str, Any], title: str) -> Entry | None:
        await self.ask_missing(cmd, title, only=("from", "to"))
        # one form: its Escape cancels the action; the confirmation's steps back to it, filled in as it was
        trade = await self.question(lambda previous, _back: TradeScreen(cmd["from"], cmd["to"], previous=previous),
                                    form=True)
        return await self.confirm_and_commit(dict(trade), title)

    async def flow_debt(self, cmd: dict[str, Any], title: str) -> Entry | None:
        debtors = [p for p in self.state.active_players if self.state.debts.get(p)]
        if "player" not in cmd:
            if not debtors:
                self.app.show_message(self.tr("debt.none"))
                return None
            cmd["player"] = debtors[0] if len(debtors) == 1 else await self.ask_player(title, only=debtors)
        await self.app.push_screen_wait(RaiseCashScreen(cmd["player"]))
        return None

    async def flow_bankrupt(self, cmd: dict[str, Any], title: str) -> Entry | None:
        state = self.state
        await self.ask_missing(cmd, title, only=("player",))
        view = bankruptcy_preview(state, cmd["player"])
        if view["refused"] is not None:
            self.app.refuse(view["refused"])
            return None
        # each deed the creditor receives mortgaged (those the bankruptcy itself mortgages too), unless the bankruptcy
        # ends a short game: the creditor then takes everything as it stands
        if "lift" not in cmd and view["creditor"] != BANK and view["mortgaged"] and not view["final"]:
            lift = await self.ask_lifts(view)
            if lift:
                cmd["lift"] = lift
                view = bankruptcy_preview(state, cmd["player"], lift)
                if view["refused"] is not None:
                    self.app.refuse(view["refused"])
                    return None
        lines = self.bankruptcy_lines(view)
        if not await self.confirm(title, lines, self.tr("bankrupt.confirm"), danger=True):
            raise Cancelled
        return self.commit(cmd)

    async def ask_lifts(self, view: dict[str, Any]) -> list[int]:
        """For each mortgaged deed the creditor receives: 10% now, or lift it at once (as the trade
        dialog offers), each with what it costs the creditor; a lift the engine refuses says why in those terms: the
        creditor's cash at that point (the bankrupt's cash received, the deeds before paid for), or its open debt."""
        state = self.state
        creditor = view["creditor"]
        name = self.tr.account(creditor)
        lift: list[int] = []
        for pos in view["mortgaged"]:
            space = state.edition.spaces[pos]
            # the choices so far made: the 10% of the deeds before, and the lifts chosen, are paid when this one comes
            terms: LiftTerms = bankruptcy_preview(state, view["player"], lift or None)["lift_terms"][pos]
            debt = ", ".join(self.tr.msg(Msg("debt-part", amount=self.fmt(c.amount),
                                             creditor=self.tr.account(c.creditor, in_text=True)))
                             for c in terms.debt)
            if terms.interest_paid:
                ten = Choice(False, self.tr("bankrupt_lift.ten", creditor=name, amount=self.fmt(terms.interest)))
            else:  # the 10% is owed to the bank: say why, with what the creditor has or owes
                ten = Choice(False, self.tr("bankrupt_lift.ten_owed", amount=self.fmt(terms.interest)),
                             note=self.tr("bankrupt_lift.owes", creditor=name, debt=debt) if terms.debt
                             else self.tr("bankrupt_lift.has", creditor=name, cash=self.fmt(terms.cash)))
            lifted = Choice(True, self.tr("bankrupt_lift.lift", creditor=name, amount=self.fmt(terms.lift),
                                          principal=self.fmt(terms.principal), interest=self.fmt(terms.interest)))
            refused = bankruptcy_preview(state, view["player"], [*lift, pos])["refused"]
            if refused is not None:
                if terms.debt:
                    why = self.tr("bankrupt_lift.no_lift_debt", creditor=name, debt=debt)
                elif terms.cash < terms.lift:
                    why = self.tr("bankrupt_lift.no_lift_cash", creditor=name, cash=self.fmt(terms.cash),
                                  amount=self.fmt(terms.lift))
                else:
                    why = self.tr.refusal(refused)
                lifted = Choice(True, lifted.label, enabled=False, note=why)
            title = self.tr("bankrupt_lift.title", space=space.name, creditor=name)
            if await self.choose(title, [ten, lifted]):
                lift.append(pos)
        return lift

    def bankruptcy_lines(self, view: dict[str, Any]) -> Lines:
        state = self.state
        p = view["player"]
        creditor = self.tr.account(view["creditor"], in_text=True)  # in the summary's sentences
        lines: Lines = [
            Text(self.tr("bankrupt.summary", player=p, creditor=creditor, debt=self.fmt(view["debt"]),
                         can=self.fmt(view["can_raise"])), "bold"),
            self.tr("bankrupt.cash", amount=self.fmt(view["cash_given"]), creditor=creditor),
        ]
        if any(c.creditor == POT for c in state.debts.get(p, [])[:1]):
            # the card said "debt → the Free Parking pot": the pot is no player, so the bankruptcy is to the bank
            lines.insert(1, self.tr("bankrupt.pot_is_bank"))
        if view["buildings_value"]:
            lines.append(self.tr("bankrupt.buildings", amount=self.fmt(view["buildings_value"])))
        for e in view["effects"]:
            if isinstance(e, Owner):
                name = state.edition.spaces[e.space].name
                to = self.tr.account(e.new or BANK)
                mark = " " + self.tr("deed.mortgaged_mark") if e.space in view["mortgaged"] else ""
                lines.append(Text(f"  {name}{mark} → {to}", "cyan"))
            elif isinstance(e, JailCardHolder):
                deck = state.edition.decks[state.edition.cards[e.card].deck]
                lines.append(Text("  " + self.tr("bankrupt.jail_card", deck=deck, to=self.tr.account(e.new or BANK)),
                                  "cyan"))
        for e in view["effects"]:
            if isinstance(e, Pay):
                lines.append(Text(f"  {self.tr.account(e.src)} → {self.tr.account(e.dst)}  {self.fmt(e.amount)}"))
        lines.append(Text(self.tr.parts(view["parts"]), "italic"))
        return lines

    async def flow_undo(self, cmd: dict[str, Any], title: str) -> Entry | None:
        """Take back the last entry that stands, or an earlier one: picked in the list ``u`` shows under its question
        (the log's latest actions, :meth:`undo_choices`), or named by its number as the log shows it (``undo #3 wrong
        house`` on the command line; ``#3 wrong house`` typed as the reason ``u`` asks for), when no later entry
        depends on it. The engine's refusal (no such entry standing, the later entries that depend on it) is said
        before anything else is asked; the confirmation names the entry and what it did."""
        from .quick import split_entry  # loaded with the flows, after the first frame

        if not self.state.history:
            self.app.show_message(self.tr("undo.nothing"), error=True)
            return None
        # Escape leaving the action says "Keep", never "Cancel": in Ukrainian that is the undo's own word ("Скасувати")
        self.questions.leave = self.tr("undo.leave")
        index = self.undo_index(cmd.get("seq"))
        if index is None:
            return None
        session = self.app.current_session
        if not cmd.get("reason"):
            if "seq" in cmd:
                typed = await self.ask_text(title, self.undo_question(index))
            else:
                picked, typed = await self.ask_undo(title)
                seq, rest = split_entry(typed.split(maxsplit=1))
                if seq is not None:  # "#3 wrong house": entry 3, for the reason after it (whichever is highlighted)
                    cmd["seq"], typed = seq, rest[0] if rest else ""
                elif picked != session.standing[-1]:  # another entry than the last highlighted in the list
                    cmd["seq"] = picked
                if "seq" in cmd:
                    index = self.undo_index(cmd["seq"])
                    if index is None:
                        return None
            cmd["reason"] = typed.strip() or await self.ask_text(title, self.undo_question(index))
        line = Text(f"#{session.standing[index]} ", "cyan")
        line.append(self.tr.parts(self.state.history[index].parts), "bold")
        lines: Lines = [self.tr("undo.will_undo"), line]
        if index < len(self.state.history) - 1:
            lines.append(Text(self.tr("undo.later_stand"), "dim"))
        lines.append(self.tr("undo.reason_line", reason=cmd["reason"]))
        # the buttons say what each does: undo it, or keep it (in Ukrainian both were "Скасувати")
        if not await self.confirm(title, lines, self.tr("undo.confirm"), cancel=self.tr("undo.keep")):
            raise Cancelled
        return self.commit(cmd)

    def undo_index(self, seq: int | None) -> int | None:
        """Where the entry an undo of ``seq`` (None: the last) takes back stands (:meth:`SessionLog.undo_index`); None
        when the engine refuses it, said in the banker's language."""
        try:
            return self.app.current_session.undo_index(seq)
        except Refused as e:
            self.app.refuse(e)
            return None

    def undo_question(self, index: int) -> str:
        """Why undo the entry at ``index`` of those standing, quoting what it did."""
        return self.tr("undo.reason", action=self.tr.parts(self.state.history[index].parts))

    async def ask_undo(self, title: str) -> tuple[int, str]:
        """``u``'s question: the reason, typed over the log's latest actions (:meth:`undo_choices`), the last that
        stands highlighted; the entry highlighted when Enter is pressed (its seq) and the text typed. The list is made
        only when the question is shown (not when the banker's answer is replayed after Escape)."""
        from .screens.undo import UndoScreen  # the dialog's code is loaded when it is first opened

        def screen(previous: tuple[int, str] | None, back: bool) -> UndoScreen:
            choices, prompts = self.undo_choices()
            last = self.app.current_session.standing[-1]
            # the example: the newest other entry that can be undone (the entry before the last may not be: a rent's debt);
            # none (one entry, or every other undone or depended on): the list offers nothing else to pick
            other = next((c.value for c in choices if c.enabled and c.value != last), None)
            listed = self.tr("undo.listed", seq=other) if other is not None else self.tr("undo.listed_alone")
            seq, text = previous if previous is not None else (None, "")
            return UndoScreen(title, prompts, choices, last, listed, value=text, current=seq, back=back)

        picked: tuple[int, str] = await self.question(screen)
        return picked

    #: how many of the log's latest actions the undo's question lists, newest first, to pick the one to undo from
    UNDO_LISTED = 8

    def undo_choices(self) -> tuple[list[Choice], dict[int, str]]:
        """The log's latest actions (not the undos), newest first, at most :data:`UNDO_LISTED` (and the last that stands,
        if older): each its number and what it did, as the log says it (its stored description, amounts included: nothing
        is worked out again), the value its seq. One that was undone is dimmed, with the undo's number; one that later
        entries depend on, dimmed with the engine's refusal (:meth:`SessionLog.undo_index`, which asks
        :meth:`GameState.check_take_out`). With them, the question for each one that may be undone, by its number (what
        it did is the line highlighted under it: quoted, a long entry pushed the list off a short screen)."""
        session = self.app.current_session
        standing = session.standing
        recent = set(standing[-self.UNDO_LISTED - 1:])  # every standing one among the latest actions is among these
        undone_by: dict[int, int] = {}
        listed: list[Entry] = []
        for entry in reversed(session.entries):
            if len(listed) == self.UNDO_LISTED:
                break
            if entry.undoes is not None:  # an undo comes after what it undoes: met first, going back
                undone_by[entry.undoes] = entry.seq
            elif not entry.is_undo:
                listed.append(entry)
        if standing and all(e.seq != standing[-1] for e in listed):  # the last that stands, undone ones after it
            listed.append(session.entries[standing[-1] - 1])
        choices: list[Choice] = []
        prompts: dict[int, str] = {}
        for entry in listed:
            said = self.tr.entry(entry)
            label = f"#{entry.seq} {said}"
            if entry.seq not in recent:  # recent holds the last that stands too
                by = undone_by.get(entry.seq)
                note = self.tr("undo.undone_by", seq=by) if by is not None else self.tr("undo.undone")
                choices.append(Choice(entry.seq, label, enabled=False, note=note))
                continue
            if entry.seq != standing[-1]:
                try:
                    session.undo_index(entry.seq)
                except Refused as e:
                    choices.append(Choice(entry.seq, label, enabled=False, note=self.tr.refusal(e)))
                    continue
            choices.append(Choice(entry.seq, label))
            prompts[entry.seq] = self.tr("undo.reason_listed", seq=entry.seq)
        return choices, prompts

    async def flow_count(self, cmd: dict[str, Any], title: str) -> Entry | None:
        """Count the table: what was found is typed in, every difference from the bank's figures is shown with
        the log entries behind the bank's figure, and the count is recorded (no money moves)."""
        cmd.pop("_quick", None)
        if not any(k in cmd for k in ("houses", "hotels", "deeds", "cash")):
            players = self.state.active_players
            counted = await self.question(lambda previous, back: CountScreen(players, previous=previous, back=back))
            cmd.update(counted)
        try:
            move = self.state.preview(cmd)
        except Refused as e:
            self.app.refuse(e)
            return None
        if not await self.confirm(title, self.count_lines(move), self.tr("count.record")):
            raise Cancelled
        return self.commit(cmd)

    #: how many of the entries behind a figure the count's check lists (the latest)
    COUNT_SOURCES = 4

    def count_lines(self, move: Move) -> Lines:
        """A count's check: agreed, or each difference with the log entries that made the bank's figure."""
        found = [Difference.from_json(d) for d in move.info.get("differences", [])]
        if not found:
            return [Text(self.tr("count.agrees", n=move.info.get("counted", 0)), "bold green")]
        lines: Lines = [Text(self.tr("count.differs", n=len(found)), "bold red")]
        logged = list(self.app.current_session.entries)
        by_seq = {e.seq: e for e in logged}
        entries = [e.to_json() for e in logged]
        for d in found:
            lines.append(Text("• " + self.tr.msg(difference_msg(d, self.fmt)), "bold"))
            behind = sources(entries, d.figure, d.player)
            if d.figure in ("houses", "hotels"):
                start = self.state.edition.houses if d.figure == "houses" else self.state.edition.hotels
                lines.append(Text("  " + self.tr("count.from_start", n=start), "dim"))
            if not behind:
                lines.append(Text("  " + self.tr("count.no_entries"), "dim"))
                continue
            shown = behind[-self.COUNT_SOURCES:]
            if len(behind) > len(shown):
                lines.append(Text("  " + self.tr("count.earlier", n=len(behind) - len(shown)), "dim"))
            for src in shown:
                entry = by_seq[src.seq]
                change = self.fmt(src.change) if d.figure == "cash" else str(src.change)
                sign = "+" if src.change > 0 else ""
                if d.figure == "cash" and src.change < 0:
                    change = "−" + self.fmt(-src.change)
                line = Text("  ")
                line.append(f"#{src.seq} ", "cyan")
                line.append(f"{sign}{change}  ", "bold")
                line.append(self.tr.entry(entry))
                lines.append(line)
        lines.append(Text(self.tr("count.hint"), "italic"))
        return lines

    async def flow_end_game(self, cmd: dict[str, Any], title: str) -> Entry | None:
        time_up = cmd.pop("_time_up", None)  # offered by the clock: the agreed end of a timed game is reached
        try:
            lines, _move = self.preview_lines(cmd)
        except Refused as e:
            self.app.refuse(e)
            return None
        confirm = None
        if time_up:
            # us-classic-rules.txt, TIME LIMIT GAME: "agree upon a definite hour of termination, when the richest
            # player will be declared the winner"
            title = self.tr("timed.up_title")
            lines = [Text(self.tr("timed.up_body", end=time_up), "bold"), *lines]
            confirm = self.tr("timed.end_now")
        try:
            ok = await self.confirm(title, lines, confirm, danger=True)
        except Cancelled:
            ok = False
        if not ok:
            if time_up:
                self.app.show_message(self.tr("timed.play_on"))
                return None
            raise Cancelled
        entry = self.commit(cmd)
        if entry and self.state.result:
            await self.app.push_screen_wait(InfoScreen(title, self.result_lines()))
        return entry

    def result_lines(self) -> Lines:
        result = self.state.result or {}
        lines: Lines = []
        winner = result.get("winner")
        if winner:
            lines.append(Text(self.tr("end.winner", player=winner), "bold green"))
        else:
            lines.append(Text(self.tr("end.tie", players=", ".join(result.get("tied", []))), "bold"))
        for p, v in sorted(result.get("valuation", {}).items(), key=lambda kv: -kv[1]):
            lines.append(f"  {p:<12} {self.fmt(v)}")
        return lines


def roll_text(roll: dict[str, Any]) -> str:
    """A roll as it is typed (``35``, ``35b``): the roll's question asked again after Escape, as it was typed."""
    speed = roll.get("speed")
    face = {"bus": "b", "mr-monopoly": "m"}.get(speed, str(speed)) if speed is not None else ""
    return "".join(str(d) for d in roll["dice"]) + face


def _is_street(space: Space) -> bool:
    """Railroads and utilities take no buildings: not offered."""
    return space.kind == "street"
