"""The log and the engine: following a log's recorded effects, and checking them against the rules.

A session opens from its log (:func:`follow`): every entry's recorded effects are put on the
engine's stack as they are (``GameState.push_effects``), an undo entry pops the move it took
back. The figures are therefore exactly what was recorded, protected by the checksums. The
rules engine is the *check* (:class:`Replay`): it recomputes every command from the state the
log records before it, and an entry the rules refuse today, or compute differently, is a
:class:`Finding`, never a reason not to open the session nor a silent change of its figures.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import msgspec

from banker.boards import game_from_setup
from banker.rules import BoardError, GameState, Refused, Setup
from banker.rules.messages import Msg, quoted, render_parts
from banker.rules.snapshot import to_plain
from banker.rules.state import invert

from .format import Damage, Entries, Entry, Said, SessionError, clip, journal_path


def game(path: Path, setup: Setup) -> GameState:
    """A fresh game of ``setup`` (the session at ``path``), or :class:`SessionError` saying why not."""
    try:
        return game_from_setup(setup)
    except BoardError as e:
        raise SessionError(f"{path}: cannot set up its game: {e}", key="no_game", path=path, reason=e) from None
    except Refused as e:
        raise SessionError(f"{path}: its setup is refused by the rules: {e}", key="setup_refused", path=path,
                           refusal=e) from None


def builtins(value: Any) -> Any:
    """What the engine returned (effects, a command, message parts: dicts today, typed structs
    tomorrow) as the JSON the log stores and compares."""
    return msgspec.to_builtins(value)


def text_of(parts: Sequence[Mapping[str, Any]]) -> str:
    """A description (message JSONs) in English: the ``text`` every entry stores beside its ``parts``."""
    return render_parts(list(parts))


def undo_parts(reason: str, undone_parts: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The description of an undo entry: "Undone (reason)", then what the undone entry said."""
    return [Msg("log.undone", reason=reason).to_json(), *(dict(p) for p in undone_parts)]


def inverses(effects: Sequence[Any]) -> list[dict[str, Any]]:
    """The effects that take ``effects`` back, in reverse order (an undo entry's effects)."""
    return [builtins(invert(e)) for e in reversed(effects)]


# --------------------------------------------------------------------------- following the log
class _Saying(Exception):
    """An exception whose reason is a :class:`Said` (:attr:`said`), its English the message."""

    def __init__(self, said: Said) -> None:
        super().__init__(said.text)
        self.said = said


class NotFollowed(_Saying, ValueError):
    """An entry the log itself cannot follow (an undo of an entry that does not stand): :attr:`said` says why."""


def _none_standing(seq: int | None) -> Said:
    return Said(f"it undoes entry {seq}, but no entry stands", "follow_none_standing", seq=seq)


def _not_followed(e: Exception) -> Said:
    """Why the log cannot be followed at an entry: the log's own reason, or what the state could not take (a
    hand-edited effect: the exception's class and its text, as Python says them)."""
    if isinstance(e, NotFollowed):
        return e.said
    if isinstance(e, Refused):  # the engine's own sentence ("a logged effect cannot be read ..."), in any language
        return Said(str(e), "follow_refused", refusal=e)
    if isinstance(e, KeyError) and e.args and isinstance(e.args[0], str):  # a player or space the setup does not have
        name = quoted(e.args[0])  # as a hand edit wrote it, every control escaped
        return Said(f'it names "{name}", which this game does not have', "follow_unknown", name=name)
    error = str(e) or type(e).__name__  # what the state could not take ("Bob's cash went below zero"), not Python's class
    return Said(error, "follow_error", error=error)


def _described(entry: Entry) -> list[Msg] | str:
    """What an entry says, as the engine's messages (said in the banker's language), else its stored text."""
    try:
        if not entry.parts:
            return entry.text
        render_parts(list(entry.parts), strict=True)  # it can be said whole (if English can, every language can)
        return [Msg.from_json(p) for p in entry.parts]
    except Exception:  # a hand-edited description: the text it stores
        return entry.text


def follow(state: GameState, standing: list[int], entry: Entry) -> None:
    """Put ``entry`` on ``state`` as recorded: its effects pushed as they are, or for an undo
    entry the move it took back popped. ``standing`` holds the seqs of the moves on the
    engine's stack (the engine's moves carry no seq: the seq belongs to the log).
    Raises ValueError (or whatever the state raises) when the log cannot be followed."""
    if entry.is_undo:
        if not standing:
            raise NotFollowed(_none_standing(entry.undoes))
        if entry.undoes not in standing:
            raise NotFollowed(Said(f"it undoes entry {entry.undoes}, which does not stand (the last standing one is "
                                   f"{standing[-1]})", "follow_not_standing", seq=entry.undoes, last=standing[-1]))
        index = standing.index(entry.undoes)
        if index != len(standing) - 1 and inverses(state.history[index].effects) != entry.effects:
            raise NotFollowed(Said(f"it undoes entry {entry.undoes}, but its effects are not those of entry "
                                   f"{entry.undoes} taken back (the last standing one is {standing[-1]})",
                                   "follow_other_effects", seq=entry.undoes, last=standing[-1]))
        state.remove(index)  # an earlier entry: the writer checked that no later one depends on it
        del standing[index]
    else:
        state.push_effects(entry.command, entry.effects, entry.parts or [], entry.info)
        standing.append(entry.seq)


def restore(path: Path, state: GameState, standing: list[int], entries: Iterable[Entry], into: Entries | list[Entry]) -> None:
    """Follow every entry of ``entries`` on ``state`` (see :func:`follow`), appending each to
    ``into`` once it is on; :class:`SessionError` names the first one that cannot be followed."""
    for entry in entries:
        try:
            follow(state, standing, entry)
        except Exception as e:  # a hand-edited effect the state cannot take
            reason = _not_followed(e)
            raise SessionError(f"{path}: entry {entry.seq} ({entry.text}) cannot be restored ({reason}); the file was "
                               "left untouched", key="cannot_restore", path=path, seq=entry.seq, reason=reason,
                               text=_described(entry)) from None
        into.append(entry)


# --------------------------------------------------------------------------- checking with the engine
FindingKind = Literal["refused", "error", "effects", "undoes", "broken", "snapshot"]


class Finding(msgspec.Struct, frozen=True):
    """An entry the rules, recomputing it today from the state the log records before it, do not
    give as it was recorded.

    ``kind``: "refused" (the rules refuse its command: ``refusal``), "error" (its command cannot
    be run at all: ``error``), "effects" (its effects differ: ``logged`` and ``computed``),
    "undoes" (it says it undoes another entry than the rules would: ``logged`` and ``computed``
    seqs), "broken" (its recorded effects cannot even be applied: ``error``; nothing after it
    can be checked), "snapshot" (the checkpoint's snapshot, which covers entries 1..seq, is not
    what those entries give: ``error`` says how, ``logged`` and ``computed`` the attribute's two
    values; or it failed its own checks and was not used: ``error`` says why).
    """

    seq: int
    kind: FindingKind
    refusal: Refused | None = None
    error: str | None = None
    logged: Any = None
    computed: Any = None


class Unfollowable(_Saying):
    """The log's own effects cannot be applied at an entry (a hand-edited log): :attr:`said` says why."""


class Replay:
    """The engine replaying a log from its start, one entry at a time (:meth:`step`): each
    command is recomputed from the state the log records before it, compared with what the
    log recorded, and the state then follows the log (the recorded effects) whatever the rules
    said, so that every entry is judged on its own."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.standing: list[int] = []
        #: entries the engine recomputed and found as recorded
        self.recomputed = 0

    def step(self, entry: Entry) -> tuple[Finding | None, list[dict[str, Any]] | None]:
        """Check ``entry`` and follow it: (a finding or None, the description the rules give,
        as message JSONs, or None when they give none). :class:`Unfollowable` when the log
        itself cannot be followed there."""
        if entry.is_undo:
            return self._undo(entry)
        state, seq = self.state, entry.seq
        finding: Finding | None = None
        parts: list[dict[str, Any]] | None = None
        try:
            move = state.push(entry.command, replay=True)
        except Refused as e:
            finding = Finding(seq, "refused", refusal=e)
        except Exception as e:  # a hand-edited command the engine chokes on
            finding = Finding(seq, "error", error=f"{type(e).__name__}: {e}")
        else:
            computed = builtins(move.effects)
            parts = builtins(move.parts)
            if entry.undoes is not None:
                finding = Finding(seq, "undoes", logged=entry.undoes, computed=None)
            elif computed != entry.effects:
                finding = Finding(seq, "effects", logged=entry.effects, computed=computed)
            if finding is None:
                self.standing.append(seq)
                self.recomputed += 1
                return None, parts
            state.pop()
        try:  # the rules disagree: the state follows the log, so that the next entry is judged on its own
            follow(state, self.standing, entry)
        except Exception as e:
            raise Unfollowable(_not_followed(e)) from None
        return finding, parts

    def _undo(self, entry: Entry) -> tuple[Finding | None, list[dict[str, Any]] | None]:
        if not self.standing:
            raise Unfollowable(_none_standing(entry.undoes))
        finding: Finding | None = None
        undone = self.standing[-1]
        if entry.undoes in self.standing and entry.undoes != undone:
            # an earlier entry: the rules agree when no later standing entry depends on it
            index = self.standing.index(entry.undoes)
            if self.state.dependents(index):
                finding = Finding(entry.seq, "undoes", logged=entry.undoes, computed=undone)
            undone = entry.undoes
        elif undone != entry.undoes:
            finding = Finding(entry.seq, "undoes", logged=entry.undoes, computed=undone)
        index = self.standing.index(undone)
        try:
            move = self.state.remove(index)
        except Exception as e:  # pragma: no cover - the standing seqs follow the engine's stack
            raise Unfollowable(_not_followed(e)) from None
        del self.standing[index]
        computed = inverses(move.effects)
        if finding is None and computed != entry.effects:
            finding = Finding(entry.seq, "effects", logged=entry.effects, computed=computed)
        if finding is None:
            self.recomputed += 1
        reason = entry.command.get("reason")
        return finding, undo_parts(reason if isinstance(reason, str) else str(reason), builtins(move.parts))


#: a snapshot as a session was opened from: (the seq it covers, its state as stored, its standing seqs)
OpenedFrom = tuple[int, dict[str, Any], Sequence[int]]


def snapshot_finding(state: GameState, standing: Sequence[int], snapshot: OpenedFrom) -> Finding | None:
    """Whether ``snapshot`` is what the log gives at its seq (``state`` and ``standing``, reached by
    following every entry up to it): None, or a "snapshot" :class:`Finding` naming the first
    attribute that differs."""
    seq, stored, stored_standing = snapshot
    if list(standing) != list(stored_standing):
        return Finding(seq, "snapshot", error=Said(f"the actions standing differ from entries 1-{seq}'s", "snapshot_standing",
                                                   seq=seq),
                       logged=list(stored_standing)[-5:], computed=list(standing)[-5:])
    given = to_plain(state)
    for name in dict.fromkeys([*given, *stored]):
        if given.get(name) != stored.get(name):
            part = Said(name, f"part.{name}")  # the state's attribute: [session.part] names it (else its id)
            return Finding(seq, "snapshot", error=Said(f"its {name} differs from what entries 1-{seq} give", "snapshot_differs",
                                                       part=part, seq=seq),
                           logged=stored.get(name), computed=given.get(name))
    return None


def follow_all(path: Path, setup: Setup, entries: Sequence[Entry],
               snapshot: OpenedFrom | None = None) -> tuple[GameState, list[int], Finding | None]:
    """The state every entry gives (followed as recorded, no rules), its standing seqs, and how
    ``snapshot`` differs from what its entries give (None: it does not, or there is none)."""
    state = game(path, setup)
    standing: list[int] = []
    at = snapshot[0] if snapshot is not None else 0
    restore(path, state, standing, entries[:at], [])
    wrong = snapshot_finding(state, standing, snapshot) if snapshot is not None else None
    restore(path, state, standing, entries[at:], [])
    return state, standing, wrong


def replay_check(path: Path, setup: Setup, entries: Iterable[Entry], *, snapshot: OpenedFrom | None = None,
                 snapshot_problem: tuple[int, str] | None = None) -> tuple[list[Finding], GameState]:
    """Recompute ``entries`` through the engine on a fresh game: the findings, and the state
    reached (which follows the log: the recorded figures). ``snapshot`` (what the session was
    opened from) is compared with the state the log gives at its seq; ``snapshot_problem`` (a
    snapshot that failed its checks on open: its seq and why) is reported as it is."""
    replay = Replay(game(path, setup))
    findings: list[Finding] = []
    if snapshot_problem is not None:
        findings.append(Finding(snapshot_problem[0], "snapshot", error=snapshot_problem[1]))
    at = snapshot[0] if snapshot is not None else None
    for entry in entries:
        try:
            finding, _parts = replay.step(entry)
        except Unfollowable as e:
            findings.append(Finding(entry.seq, "broken", error=e.said))
            break
        if finding is not None:
            findings.append(finding)
        if entry.seq == at and snapshot is not None and (found := snapshot_finding(replay.state, replay.standing,
                                                                                   snapshot)):
            findings.append(found)
    return findings, replay.state


# --------------------------------------------------------------------------- damage, explained
#: the fields of an effect that name an account (a player, the bank or the pot: ``[session.account]``)
_ACCOUNT_FIELDS = frozenset({"from", "to", "creditor", "player", "winner"})


def effect_said(effect: Any) -> Said:
    """An effect as logged (``{"t": "pay", "from": "Bob", ...}``) in words: its kind, then each field and its
    value (``pay (from Bob, to Ann, amount 100, for rent)``); the kinds, fields and reasons are keys of the
    catalogs' ``[session.effect]``, ``[session.field]`` and ``[session.why]`` tables (an unknown one is said
    as it is stored)."""
    if not isinstance(effect, dict):
        return _value_said(None, effect)
    kind = effect.get("t")
    fields = [_field_said(k, v) for k, v in effect.items() if k != "t"]
    kind_said = _kind_said(kind)
    if kind is None:
        return Said(", ".join(fields), "effect_fields", fields=fields)
    return Said(f"{kind_said} ({', '.join(fields)})", "effect_in_words", kind=kind_said, fields=fields)


def _kind_said(kind: Any) -> Said:
    return Said(str(kind), f"effect.{kind}") if isinstance(kind, str) else _value_said(None, kind)


#: how deep the values of an effect are said in words; deeper ones are shown as their (clipped) JSON
_SAID_DEPTH = 4


def _field_said(key: str, value: Any, depth: int = 0) -> Said:
    name = Said(key, f"field.{key}")
    shown = _value_said(key, value, depth)
    return Said(f"{name} {shown}", "effect_field", field=name, value=shown)


def _value_said(key: str | None, value: Any, depth: int = 0) -> Said:
    """One value of an effect: an account, a reason (``for``), yes or no, nothing, a list or an object of
    them (to :data:`_SAID_DEPTH` levels: a hand edit may nest them hundreds deep); a name, a number or any other
    text as it is (clipped)."""
    if value is None:
        return Said("none", "value_none")
    if value is True or value is False:
        return Said(json.dumps(value), "value_yes" if value else "value_no")
    if isinstance(value, str):
        if key in _ACCOUNT_FIELDS or key in ("old", "new"):
            return Said(clip(value, 60), f"account.{value}")  # the bank and the pot by name; a player as named
        if key == "for":
            return Said(clip(value, 60), f"why.{value}")
        return Said(clip(value, 60), "value_text", text=clip(value, 60))
    if isinstance(value, list | dict) and depth >= _SAID_DEPTH:
        return Said(_short(value), "value_text", text=_short(value))
    if isinstance(value, list):
        items = [_value_said(key, v, depth + 1) for v in value[:6]]
        more = [Said("…", "value_text", text="…")] if len(value) > 6 else []
        return Said(f"[{', '.join([*items, *more])}]", "value_list", items=[*items, *more])
    if isinstance(value, dict):
        fields = [_field_said(k, v, depth + 1) for k, v in list(value.items())[:8]]
        return Said(f"{{{', '.join(fields)}}}", "value_object", fields=fields)
    return Said(_short(value), "value_text", text=_short(value))


def _effect_change(logged: list[Any], computed: list[Any]) -> Said:
    for i in range(max(len(logged), len(computed))):
        a = logged[i] if i < len(logged) else None
        b = computed[i] if i < len(computed) else None
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict) and a.get("t") == b.get("t"):
            keys = [k for k in dict.fromkeys([*a, *b]) if a.get(k) != b.get(k)]
            said = [_field_said(k, a.get(k)) for k in keys]
            given = [_value_said(k, b.get(k)) for k in keys]
            kind = _kind_said(a.get("t"))
            return Said(f"its effect {i + 1} ({kind}) says {', '.join(said)} where the rules give {', '.join(given)}",
                        "explain_effect", i=i + 1, kind=kind, said=said, given=given)
        if a is None:
            return Said(f"it lists {len(logged)} effects where the rules give {len(computed)}", "explain_count",
                        n=len(logged), computed=len(computed))
        was, given_one = effect_said(a), effect_said(b)
        return Said(f"its effect {i + 1} says {_short(a)} where the rules give {_short(b)}", "explain_other_effect",
                    i=i + 1, said=was, given=given_one)
    return Said("its effects differ from the rules'", "explain_differ")  # pragma: no cover


def _short(value: Any) -> str:
    try:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    except (RecursionError, TypeError, ValueError):  # nested deeper than JSON is written, or not JSON at all
        text = "…"
    return clip(text, 60)


def explain_changes(setup: Setup, entries: Sequence[Entry], seqs: Iterable[int]) -> dict[int, Said]:
    """What is known about each changed entry in ``seqs``: the rules replay the log and say
    where the entry disagrees with them (its effects, its undo, its text) or that it agrees,
    so that the change is in what the rules cannot check (its time, notes or checksum)."""
    wanted = set(seqs)
    out: dict[int, Said] = {}
    if not wanted:
        return out
    try:
        replay = Replay(game_from_setup(setup))
    except (BoardError, Refused) as e:
        # a refusal is the engine's sentence; a board error the board file's (English: which key of the file is wrong)
        reason: object = e if isinstance(e, Refused) else str(e)
        return {seq: Said(f"(the rules cannot set up its game: {e})", "explain_no_game", reason=reason) for seq in wanted}
    last = max(wanted)
    for entry in entries:
        seq = entry.seq
        if seq > last:
            break
        try:
            finding, parts = replay.step(entry)
        except Unfollowable:
            if seq in wanted:
                out[seq] = Said("its effects cannot be applied: its effects were changed", "explain_unfollowable")
            not_checked = Said("(not checked: an earlier entry cannot be followed)", "explain_not_checked")
            return out | {s: not_checked for s in wanted if s not in out}
        if seq not in wanted:
            continue
        if finding is not None and finding.kind == "refused":
            out[seq] = Said(f"its command is refused by the rules ({finding.refusal}): its command was changed",
                            "explain_refused", refusal=finding.refusal)
        elif finding is not None and finding.kind == "error":
            # the exception's class (an id such as KeyError): what the engine choked on
            error = (finding.error or "").split(":")[0]
            out[seq] = Said(f"its command cannot be run ({error}): its command was changed", "explain_error", error=error)
        elif finding is not None and finding.kind == "undoes":
            out[seq] = Said(f"it says it undoes entry {finding.logged} where the rules undo entry {finding.computed}",
                            "explain_undoes", logged=finding.logged, computed=finding.computed)
        elif finding is not None:
            out[seq] = _effect_change(finding.logged, finding.computed)
        elif parts is not None and (text := text_of(parts)) != entry.text:
            # the entry's text as it is stored (quoted); the rules' as their messages, said in the banker's language
            out[seq] = Said(f'its text reads "{clip(entry.text, 60)}" where the rules write "{clip(text, 60)}"',
                            "explain_text", text=clip(entry.text, 60), rules=[Msg.from_json(p) for p in parts])
        else:
            out[seq] = Said("its command, effects and text agree with the rules, so the change is in what they cannot "
                            "check (its time, notes or the checksum itself)", "explain_agree")
    return out


def damage_message(path: Path, damage: list[Damage], explain_with: tuple[Setup, Sequence[Entry]] | None = None) -> Said:
    """One line: what is damaged, what is known about it, and what the banker can do."""
    first = damage[0]
    what: Said = first.said or Said(first.text, "damage_other", text=first.text)
    if first.kind == "entry" and explain_with is not None and first.seq is not None:
        explained = explain_changes(explain_with[0], explain_with[1], [first.seq]).get(first.seq)
        if explained:
            what = Said(f"{what}: {explained}", "damage_explained", what=what, explained=explained)
    more = len(damage) - 1
    also = f" (and {more} more problem{'s' if more > 1 else ''}: `banker audit {path}` lists them)" if more else ""
    if first.kind == "journal-line":
        seq = first.seq
        todo = (f"`banker repair {path}` keeps the line aside in {journal_path(path).name}.damaged-{seq} and drops it "
                f"(entry {seq} is then lost)")
        key = "damaged_line_more" if more else "damaged_line"
    else:
        todo = (f"restore a backup, or `banker repair {path} --accept-changes` keeps the file as it is now, "
                "the changes included")
        key = "damaged_more" if more else "damaged"
    return Said(f"{path} is damaged: {what}{also}; nothing was changed and the session opens read-only until you choose: "
                f"{todo}", key, path=path, what=what, n=more, journal=journal_path(path).name, seq=seq if first.kind ==
                "journal-line" else None)


def damage_lines(damage: list[Damage], setup: Setup, entries: Sequence[Entry]) -> list[Said]:
    """Every finding, one a line, with what is known about each changed entry."""
    explained = explain_changes(setup, entries, [d.seq for d in damage if d.kind == "entry" and d.seq is not None])
    out = []
    for d in damage:
        line: Said = d.said or Said(d.text, "damage_other", text=d.text)
        if d.kind == "entry" and d.seq in explained:
            line = Said(f"{line}: {explained[d.seq]}", "damage_explained", what=line, explained=explained[d.seq])
        out.append(line)
    return out


__all__ = ["Finding", "OpenedFrom", "Replay", "Unfollowable", "builtins", "damage_lines", "damage_message",
           "effect_said", "explain_changes", "follow", "follow_all", "game", "inverses", "replay_check", "restore",
           "snapshot_finding", "text_of", "undo_parts"]
