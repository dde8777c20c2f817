// The players' table view: polls state.json and draws it. Read-only: it only ever GETs.
// Every text from the game (player names, memos, deed names) is placed with textContent,
// never parsed as markup. No framework, nothing loaded from elsewhere.
"use strict";

(function () {
  var POLL_MS = 500;        // an action shows within a second (the server looks every 150 ms)
  var TIMEOUT_MS = 4000;    // a request that takes longer counts as a lost connection
  // before the first state (and its labels) arrives: the page's own, in the table's language (index.html)
  var status = document.getElementById("status");
  var FALLBACK_LOST = status.getAttribute("data-lost") || "Connection lost, retrying…";
  var FALLBACK_GONE = status.getAttribute("data-gone") || "This table view has stopped or was started again: scan the new code.";

  var etag = null;
  var failures = 0;
  var labels = {};
  var shown = null;         // the document on screen

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null && text !== "") node.textContent = String(text);
    return node;
  }

  function byId(id) {
    return document.getElementById(id);
  }

  function deedGroup(group) {
    var box = el("div", "group" + (group.full ? " full" : ""));
    var head = el("div", "group-head");
    var swatch = el("span", "swatch");
    swatch.style.backgroundColor = group.color;   // CSSOM, not markup: a bad value is ignored
    head.appendChild(swatch);
    head.appendChild(el("span", "group-name", group.name));
    box.appendChild(head);
    var list = el("ul", "deeds");
    group.deeds.forEach(function (deed) {
      var item = el("li", "deed" + (deed.mortgaged ? " mortgaged" : "") + (deed.hotel ? " hotel" : ""));
      item.appendChild(el("span", "deed-name", deed.name));
      if (deed.marks) item.appendChild(el("span", "marks", deed.marks));
      list.appendChild(item);
    });
    box.appendChild(list);
    return box;
  }

  function playerCard(player, index) {
    var card = el("article", "card player" + (player.debts.length ? " in-debt" : "") +
                  (player.bankrupt ? " bankrupt" : "") + (player.turn ? " turn" : ""));
    card.dataset.index = String(index);
    var head = el("div", "player-head");
    head.appendChild(el("h2", "name", player.name));
    head.appendChild(el("span", "cash", player.cash_text));
    card.appendChild(head);
    // follow mode (issue #11): whose turn it is and where the token stands
    if (player.turn_text) card.appendChild(el("p", "turn-line", player.turn_text));
    if (player.token_text) card.appendChild(el("p", "token" + (player.in_jail ? " in-jail" : ""), player.token_text));
    if (player.status) card.appendChild(el("p", "status-line", player.status));
    // the final valuation, once the game has ended; no worth at all during play (the income tax
    // is chosen before the worth is added up, so the page must not add it up for anyone)
    if (player.worth_text) card.appendChild(el("p", "worth", player.worth_text));
    player.debts.forEach(function (debt) {
      card.appendChild(el("p", "debt", debt));
    });
    if (player.jail_text) card.appendChild(el("p", "jail", player.jail_text));
    player.groups.forEach(function (group) {
      card.appendChild(deedGroup(group));
    });
    return card;
  }

  function bankCard(doc) {
    var nodes = [el("h2", null, labels.bank)];
    doc.bank.lines.forEach(function (line) {
      nodes.push(el("p", "bank-line", line));
    });
    doc.bank.notes.forEach(function (line) {
      nodes.push(el("p", "bank-note", line));
    });
    return nodes;
  }

  function logCard(doc) {
    var nodes = [el("h2", null, labels.last_actions)];
    if (!doc.actions.length) {
      nodes.push(el("p", "empty", labels.no_actions));
      return nodes;
    }
    var list = el("ol", "actions");
    doc.actions.forEach(function (action) {
      var item = el("li", "action" + (action.undone ? " undone" : "") + (action.undo ? " undo" : ""));
      item.dataset.seq = String(action.seq);
      item.appendChild(el("span", "seq", action.seq));
      item.appendChild(el("span", "time", action.time || ""));  // the table's clock, worked out by the server
      var text = el("span", "text", action.text);
      if (action.undone) text.title = labels.undone;
      item.appendChild(text);
      list.appendChild(item);
    });
    nodes.push(list);
    return nodes;
  }

  function render(doc) {
    shown = doc;
    labels = doc.labels || {};
    document.documentElement.lang = doc.lang || "en";
    document.title = doc.title;
    byId("title").textContent = doc.name;
    byId("header").textContent = doc.header;
    var players = doc.players.map(playerCard);
    byId("players").replaceChildren.apply(byId("players"), players);
    byId("bank").replaceChildren.apply(byId("bank"), bankCard(doc));
    byId("log").replaceChildren.apply(byId("log"), logCard(doc));
    byId("foot").textContent = labels.read_only || "";
    document.body.dataset.version = String(doc.version);
    showStale();
  }

  function showStale() {
    // error_text: a fault in banker, worded by the server; otherwise the file cannot be read
    showStatus(shown && shown.error ? (shown.error_text || labels.stale || shown.error) : null, "stale");
  }

  function showStatus(text, kind) {
    var status = byId("status");
    if (!text) {
      status.hidden = true;
      status.textContent = "";
      document.body.classList.remove("lost");
      return;
    }
    status.textContent = text;
    status.className = "status " + kind;
    status.hidden = false;
    document.body.classList.toggle("lost", kind === "lost");
  }

  function schedule() {
    var wait = failures ? Math.min(2000, POLL_MS * failures) : POLL_MS;
    window.setTimeout(poll, wait);
  }

  function poll() {
    var controller = new AbortController();
    var timer = window.setTimeout(function () { controller.abort(); }, TIMEOUT_MS);
    var headers = {};
    if (etag) headers["If-None-Match"] = etag;
    fetch("state.json", {cache: "no-store", headers: headers, signal: controller.signal, credentials: "omit"})
      .then(function (response) {
        if (response.status === 304) return null;
        if (response.status === 404) {  // the server answers, but not for this address: a new one has a new code
          var gone = new Error("gone");
          gone.gone = true;
          throw gone;
        }
        if (response.status !== 200) throw new Error("HTTP " + response.status);
        var tag = response.headers.get("ETag");
        return response.json().then(function (doc) {
          etag = tag;
          return doc;
        });
      })
      .then(function (doc) {
        window.clearTimeout(timer);
        var wasLost = failures > 0;
        failures = 0;
        if (doc) {
          render(doc);
        } else if (wasLost) {
          showStale();
        }
        schedule();
      })
      .catch(function (error) {
        window.clearTimeout(timer);
        failures += 1;
        if (error && error.gone) {
          showStatus(labels.gone || FALLBACK_GONE, "lost");
        } else {
          showStatus(labels.connection_lost || FALLBACK_LOST, "lost");
        }
        schedule();
      });
  }

  poll();
})();
