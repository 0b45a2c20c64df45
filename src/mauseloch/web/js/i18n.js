// Every string the pages show, in English and German, and the language switch.
// The language comes from localStorage ("ml_lang"), else from navigator.language.

const STRINGS = {
  en: {
    "app.title": "Mauseloch",
    "lang.label": "Language",
    "lang.switch": "Deutsch",
    "lang.switchAria": "Auf Deutsch umschalten",
    "nav.lobby": "Lobby",
    "common.you": "you",
    "common.bot": "bot",
    "bot.name": "{level} bot {n}",
    "bot.random": "Random",
    "bot.heuristic": "Heuristic",
    "common.seat": "Seat {n}",
    "common.close": "Close",
    "common.loading": "Loading…",
    "common.yes": "yes",
    "common.no": "no",

    "game.mau-mau": "Match suit or rank and get rid of your cards: sevens make the next player draw, eights skip, nines reverse, jacks wish a suit.",
    "game.aus-die-maus": "Flip your cards in turn; a mouse starts a chase, and a cat catches the pile and a chip.",
    "opt.ace_skips": "Ace skips",
    "opt.seven_draw_then_play": "Play on after a seven-penalty",
    "opt.no_jack_on_jack": "No jack on a jack",
    "opt.no_win_with_jack": "No win with a jack",
    "opt.move_limit": "Move limit",
    "opt.small_deck": "Small deck",
    "opt.chips": "Chips",
    "optHelp.ace_skips": "An ace makes the next player miss a turn, like an eight.",
    "optHelp.seven_draw_then_play": "Whoever takes a seven-penalty may move at once instead of missing the turn.",
    "optHelp.no_jack_on_jack": "A jack may not be played on a jack; the wish stays.",
    "optHelp.no_win_with_jack": "A last jack does not win: draw a penalty card and play on.",
    "optHelp.move_limit": "After this many moves the game ends with the usual ranking.",
    "optHelp.small_deck": "Only the cards with the red back (45) and 5 chips.",
    "optHelp.chips": "Chips in the game; whoever takes the last one ends it.",
    "optDefault.small_deck": "yes for 2–3 players, else no",
    "optDefault.chips": "9, or 5 with the small deck",
    "lobby.heading": "Mauseloch — card games with friends and bots",
    "lobby.name": "Your name",
    "lobby.namePlaceholder": "e.g. Anna",
    "lobby.create": "New table",
    "lobby.game": "Game",
    "lobby.options": "Options",
    "lobby.optionAuto": "automatic",
    "lobby.optionDefault": "Default: {text}.",
    "lobby.seats": "Number of seats",
    "lobby.seatKind": "Seat {n}",
    "lobby.seatYou": "you",
    "lobby.human": "a person (invite)",
    "lobby.botKind": "bot: {bot}",
    "lobby.createButton": "Create table",
    "lobby.created": "Table created",
    "lobby.invite": "Invite link",
    "lobby.inviteHelp": "Send this link to the people you want to play with. The game starts when every seat is taken.",
    "lobby.copy": "Copy link",
    "lobby.copied": "Link copied",
    "lobby.share": "Share",
    "lobby.goTable": "Go to the table",
    "lobby.open": "Tables",
    "lobby.none": "No tables yet. Create one!",
    "lobby.refresh": "Refresh",
    "lobby.join": "Join",
    "lobby.watch": "Watch",
    "lobby.replay": "Replay",
    "lobby.free": "free seat",
    "lobby.status.waiting": "waiting for players",
    "lobby.status.playing": "playing",
    "lobby.status.over": "over",
    "lobby.status.closed": "closed: everyone left",
    "lobby.yourSeat": "Your seat",
    "lobby.clock": "Turn clock",
    "lobby.clockHint": "When time runs out, a stand-in bot makes the move.",
    "lobby.clock.off": "Off",
    "lobby.clock.relaxed": "Relaxed ({s} s a move)",
    "lobby.clock.normal": "Normal ({s} s a move)",
    "lobby.clock.fast": "Fast ({s} s a move)",
    "presence.online": "online",
    "presence.away": "away",
    "presence.gone": "gone",
    "presence.open": "free seat",
    "presence.bot": "bot",
    "presence.standIn": "stand-in plays",
    "table.players": "Players",
    "table.byStandIn": "(stand-in)",
    "table.timeLeft": "{s} s left",
    "table.timeLeftFor": "{name}: {s} s left",
    "table.yourTimeSay": "Your turn: {s} seconds.",
    "table.hurrySay": "{s} seconds left.",
    "table.standInSay": "A stand-in plays for {name}.",
    "table.leave": "Leave table",
    "table.leaveConfirm": "Leave this table? A stand-in bot will play your seat; you can come back with your seat link.",
    "table.mySeat": "My seat link",
    "table.mySeatHint": "Open this link on another device to play your seat there. Keep it to yourself.",
    "table.rematch": "Rematch",
    "table.rematchWaiting": "Rematch: waiting for {names}",
    "table.closed": "This table was closed: everyone left before the game began.",
    "lobby.needName": "Please enter your name first.",
    "lobby.tableAria": "{game} table {id}, {status}",

    "table.connecting": "Connecting…",
    "table.connected": "Connected",
    "table.gone": "Not connected: this table or seat is not available.",
    "table.reconnecting": "Connection lost — reconnecting in {s} s…",
    "table.spectator": "You are watching",
    "table.joinHeading": "Join this table",
    "table.joinButton": "Take a seat",
    "table.watchButton": "Just watch",
    "table.noFreeSeat": "Every seat is taken; you can watch.",
    "table.waiting": "Waiting for players… The game starts when every seat is taken.",
    "table.waitingShort": "Waiting for players",
    "table.defaultTitle": "{game} at {name}'s",
    "table.toMove": "to move",
    "table.yourTurn": "Your turn",
    "table.waitFor": "Waiting for {name}",
    "table.cards": "{n} cards",
    "table.card1": "1 card",
    "table.log": "What happened",
    "table.refused": "Move refused: {message}",
    "error.illegal": "This move is not allowed now.",
    "error.stale": "The table moved on before your move arrived; here is the new state.",
    "error.not_your_turn": "It is not your turn.",
    "error.rate_limited": "Slow down a little.",
    "error.not_started": "The game has not started yet.",
    "error.bad_token": "This seat link is not valid (any more).",
    "error.bad_message": "The server did not accept this request.",
    "error.too_large": "That is too much text.",
    "error.not_found": "This table does not exist (any more).",
    "error.not_over": "This game is not over yet.",
    "error.taken": "Someone was quicker: this seat is taken.",
    "error.name_too_long": "This name is too long.",
    "error.title_too_long": "This title is too long.",
    "error.server_error": "Something went wrong on the server. Please try again.",
    "table.gameOver": "Game over",
    "table.rank": "Rank",
    "table.player": "Player",
    "table.toReplay": "Watch the replay",
    "table.toLobby": "Back to the lobby",
    "table.reason": "Reason: {reason}",
    "table.leftWith": "Cards left",

    "mm.hand": "Your hand",
    "mm.top": "Top card",
    "mm.drawPile": "Draw pile: {n}",
    "mm.draw": "Draw a card",
    "mm.pass": "Keep it (pass)",
    "mm.passNothing": "Pass",
    "mm.take": "Take {n} cards",
    "mm.wish": "Wished suit: {suit}",
    "mm.penalty": "Penalty open: {n} cards — play a seven or take them",
    "mm.penaltyOther": "Penalty open: {n} cards",
    "mm.drawn": "You drew {card}: play it or keep it.",
    "mm.pickSuit": "Which suit do you wish for?",
    "mm.cancel": "Cancel",
    "mm.playable": "playable",
    "mm.notPlayable": "not playable now",
    "mm.direction": "Direction: {dir}",
    "mm.dir.cw": "clockwise ↻",
    "mm.dir.ccw": "counter-clockwise ↺",
    "mm.points": "Points",
    "mm.reason.out": "a player has no cards left",
    "mm.reason.stalemate": "nobody can play or draw",
    "mm.reason.move_limit": "the move limit was reached",
    "mm.mau": "Mau!",
    "mm.maumau": "Mau-Mau!",

    "am.flip": "Flip!",
    "am.flipAria": "Flip the top card of your stack",
    "am.stack": "Stack: {n}",
    "am.chips": "Chips: {n}",
    "am.chipsLeft": "Chips left: {n}",
    "am.pile": "Pile: {n}",
    "am.pileEmpty": "empty pile",
    "am.call": "Mouse, watch out, the cat is coming!",
    "am.chase": "{chaser} chases the mouse of {owner}",
    "am.attempts": "Attempts left: {n}",
    "am.role.owner": "mouse's owner",
    "am.role.chaser": "chasing",
    "am.stackCol": "Cards in stack",
    "am.chipsCol": "Chips",
    "am.reason.chips": "the last chip was taken",
    "am.reason.empty_stack": "a player's stack ran out",
    "am.reason.endless": "the game would go on forever",

    "replay.heading": "Replay",
    "replay.first": "First",
    "replay.prev": "Back",
    "replay.next": "Forward",
    "replay.last": "Last",
    "replay.step": "Move {i} of {n}",
    "replay.start": "The deal",
    "replay.download": "Download the record (JSON)",
    "replay.keys": "Arrow keys ← → step through the game.",
    "replay.notOver": "This game is not over yet; the replay opens when it is.",

    "suit.C": "clubs",
    "suit.S": "spades",
    "suit.H": "hearts",
    "suit.D": "diamonds",
    "suitLetter.C": "C",
    "suitLetter.S": "S",
    "suitLetter.H": "H",
    "suitLetter.D": "D",
    "rank.7": "seven",
    "rank.8": "eight",
    "rank.9": "nine",
    "rank.T": "ten",
    "rank.J": "jack",
    "rank.Q": "queen",
    "rank.K": "king",
    "rank.A": "ace",
    "card.name": "{rank} of {suit}",
    "face.J": "J",
    "face.Q": "Q",
    "face.K": "K",
    "face.A": "A",
    "face.cheese": "CHEESE",
    "face.mouse": "MOUSE",
    "face.cat": "CAT",
    "card.back": "face-down card",
    "card.cheese": "cheese",
    "card.mouse": "mouse with {n} paws",
    "card.mouse1": "mouse with 1 paw",
    "card.cat": "cat",

    "mm.ev.deal.one": "{name} got 1 card",
    "mm.ev.deal.other": "{name} got {n} cards",
    "mm.ev.dealOwn": "{name} got {cards}",
    "mm.ev.start": "The game starts with {card}",
    "mm.ev.play": "{name} played {card}",
    "mm.ev.wish": "{name} wishes {suit}",
    "mm.ev.draw.one": "{name} drew a card",
    "mm.ev.draw.other": "{name} drew {n} cards",
    "mm.ev.drawOwn": "{name} drew {cards}",
    "mm.ev.penalty.one": "{name} faces a penalty of 1 card",
    "mm.ev.penalty.other": "{name} faces a penalty of {n} cards",
    "mm.ev.take.one": "{name} takes the penalty: 1 card",
    "mm.ev.take.other": "{name} takes the penalty: {n} cards",
    "mm.ev.skip": "{name} misses a turn",
    "mm.ev.reverseCw": "{name} reversed the direction: now clockwise",
    "mm.ev.reverseCcw": "{name} reversed the direction: now counter-clockwise",
    "mm.ev.pass": "{name} passed",
    "mm.ev.mau": "{name}: Mau!",
    "mm.ev.mau_mau": "{name}: Mau-Mau!",
    "mm.ev.jack_no_win": "{name} may not win with a jack and draws a card",
    "mm.ev.reshuffle.one": "The discard pile was shuffled into a new draw pile (1 card)",
    "mm.ev.reshuffle.other": "The discard pile was shuffled into a new draw pile ({n} cards)",
    "mm.ev.end": "Game over: {reason}",
    "am.ev.deal": "The cards are dealt: {stacks} cards per stack",
    "am.ev.start": "The pile starts with {card}",
    "am.ev.flip": "{name} flipped {card}",
    "am.ev.call.one": "{name} flipped a mouse with 1 paw: “Mouse, watch out, the cat is coming!” {chaser} chases it",
    "am.ev.call.other": "{name} flipped a mouse with {n} paws: “Mouse, watch out, the cat is coming!” {chaser} chases it",
    "am.ev.chase.one": "{chaser} chases the mouse of {owner}: 1 attempt left",
    "am.ev.chase.other": "{chaser} chases the mouse of {owner}: {n} attempts left",
    "am.ev.catch": "{name}'s cat caught the mouse of {owner}!",
    "am.ev.escape": "The mouse of {name} escaped from {chaser}",
    "am.ev.pile_won": "{name} wins the pile ({n} cards)",
    "am.ev.pile_won_chip.one": "{name} wins the pile ({cards} cards) and a chip — 1 chip left",
    "am.ev.pile_won_chip.other": "{name} wins the pile ({cards} cards) and a chip — {n} chips left",
    "am.ev.new_pile": "{name} starts a new pile with {card}",
    "am.ev.end": "Game over: {reason}",
    "ev.other": "{type}",
  },
  de: {
    "app.title": "Mauseloch",
    "lang.label": "Sprache",
    "lang.switch": "English",
    "lang.switchAria": "Switch to English",
    "nav.lobby": "Lobby",
    "common.you": "du",
    "common.bot": "Bot",
    "bot.name": "{level}-Bot {n}",
    "bot.random": "Zufalls",
    "bot.heuristic": "Heuristik",
    "common.seat": "Platz {n}",
    "common.close": "Schließen",
    "common.loading": "Lädt…",
    "common.yes": "ja",
    "common.no": "nein",

    "game.mau-mau": "Farbe oder Wert bedienen und die Karten loswerden: Sieben heißt ziehen, Acht aussetzen, Neun Richtungswechsel, Bube wünscht eine Farbe.",
    "game.aus-die-maus": "Reihum Karten umdrehen; eine Maus startet eine Jagd, eine Katze fängt die Ablage und einen Chip.",
    "opt.ace_skips": "Ass setzt aus",
    "opt.seven_draw_then_play": "Nach der Sieben-Strafe weiterspielen",
    "opt.no_jack_on_jack": "Kein Bube auf Bube",
    "opt.no_win_with_jack": "Nicht mit Bube gewinnen",
    "opt.move_limit": "Zuggrenze",
    "opt.small_deck": "Kleines Spiel",
    "opt.chips": "Chips",
    "optHelp.ace_skips": "Ein Ass lässt den nächsten Spieler aussetzen, wie eine Acht.",
    "optHelp.seven_draw_then_play": "Wer die Sieben-Strafe nimmt, darf gleich weiterspielen, statt auszusetzen.",
    "optHelp.no_jack_on_jack": "Ein Bube darf nicht auf einen Buben gelegt werden; der Wunsch bleibt.",
    "optHelp.no_win_with_jack": "Ein letzter Bube gewinnt nicht: eine Strafkarte ziehen und weiterspielen.",
    "optHelp.move_limit": "Nach so vielen Zügen endet das Spiel mit der üblichen Wertung.",
    "optHelp.small_deck": "Nur die Karten mit rotem Rücken (45) und 5 Chips.",
    "optHelp.chips": "Chips im Spiel; wer den letzten nimmt, beendet das Spiel.",
    "optDefault.small_deck": "ja bei 2–3 Spielern, sonst nein",
    "optDefault.chips": "9, oder 5 mit kleinem Spiel",
    "lobby.heading": "Mauseloch — Kartenspiele mit Freunden und Bots",
    "lobby.name": "Dein Name",
    "lobby.namePlaceholder": "z. B. Anna",
    "lobby.create": "Neuer Tisch",
    "lobby.game": "Spiel",
    "lobby.options": "Optionen",
    "lobby.optionAuto": "automatisch",
    "lobby.optionDefault": "Standard: {text}.",
    "lobby.seats": "Anzahl der Plätze",
    "lobby.seatKind": "Platz {n}",
    "lobby.seatYou": "du",
    "lobby.human": "ein Mensch (einladen)",
    "lobby.botKind": "Bot: {bot}",
    "lobby.createButton": "Tisch eröffnen",
    "lobby.created": "Tisch eröffnet",
    "lobby.invite": "Einladungslink",
    "lobby.inviteHelp": "Schick diesen Link an die Leute, mit denen du spielen willst. Das Spiel beginnt, wenn alle Plätze besetzt sind.",
    "lobby.copy": "Link kopieren",
    "lobby.copied": "Link kopiert",
    "lobby.share": "Teilen",
    "lobby.goTable": "Zum Tisch",
    "lobby.open": "Tische",
    "lobby.none": "Noch keine Tische. Eröffne einen!",
    "lobby.refresh": "Aktualisieren",
    "lobby.join": "Mitspielen",
    "lobby.watch": "Zuschauen",
    "lobby.replay": "Wiederholung",
    "lobby.free": "freier Platz",
    "lobby.status.waiting": "wartet auf Spieler",
    "lobby.status.playing": "läuft",
    "lobby.status.over": "beendet",
    "lobby.status.closed": "geschlossen: alle sind gegangen",
    "lobby.yourSeat": "Dein Platz",
    "lobby.clock": "Zeit pro Zug",
    "lobby.clockHint": "Läuft die Zeit ab, macht ein Ersatz-Bot den Zug.",
    "lobby.clock.off": "Aus",
    "lobby.clock.relaxed": "Gemütlich ({s} s pro Zug)",
    "lobby.clock.normal": "Normal ({s} s pro Zug)",
    "lobby.clock.fast": "Schnell ({s} s pro Zug)",
    "presence.online": "da",
    "presence.away": "weg",
    "presence.gone": "gegangen",
    "presence.open": "freier Platz",
    "presence.bot": "Bot",
    "presence.standIn": "Ersatz spielt",
    "table.players": "Mitspieler",
    "table.byStandIn": "(Ersatz)",
    "table.timeLeft": "noch {s} s",
    "table.timeLeftFor": "{name}: noch {s} s",
    "table.yourTimeSay": "Du bist dran: {s} Sekunden.",
    "table.hurrySay": "Noch {s} Sekunden.",
    "table.standInSay": "Ein Ersatz spielt für {name}.",
    "table.leave": "Tisch verlassen",
    "table.leaveConfirm": "Diesen Tisch verlassen? Ein Ersatz-Bot spielt deinen Platz; mit deinem Platz-Link kannst du zurückkommen.",
    "table.mySeat": "Link zu meinem Platz",
    "table.mySeatHint": "Öffne diesen Link auf einem anderen Gerät, um dort weiterzuspielen. Gib ihn nicht weiter.",
    "table.rematch": "Revanche",
    "table.rematchWaiting": "Revanche: warte auf {names}",
    "table.closed": "Dieser Tisch wurde geschlossen: alle sind vor Spielbeginn gegangen.",
    "lobby.needName": "Bitte gib zuerst deinen Namen ein.",
    "lobby.tableAria": "Tisch {id}: {game}, {status}",

    "table.connecting": "Verbinde…",
    "table.connected": "Verbunden",
    "table.gone": "Nicht verbunden: Tisch oder Platz gibt es nicht (mehr).",
    "table.reconnecting": "Verbindung verloren — neuer Versuch in {s} s…",
    "table.spectator": "Du schaust zu",
    "table.joinHeading": "An diesem Tisch mitspielen",
    "table.joinButton": "Platz nehmen",
    "table.watchButton": "Nur zuschauen",
    "table.noFreeSeat": "Alle Plätze sind besetzt; du kannst zuschauen.",
    "table.waiting": "Warte auf Mitspieler… Das Spiel beginnt, wenn alle Plätze besetzt sind.",
    "table.waitingShort": "Warte auf Mitspieler",
    "table.defaultTitle": "{game} bei {name}",
    "table.toMove": "am Zug",
    "table.yourTurn": "Du bist dran",
    "table.waitFor": "Warte auf {name}",
    "table.cards": "{n} Karten",
    "table.card1": "1 Karte",
    "table.log": "Was passiert ist",
    "table.refused": "Zug abgelehnt: {message}",
    "error.illegal": "Dieser Zug ist jetzt nicht erlaubt.",
    "error.stale": "Der Tisch war schon weiter, als dein Zug ankam; hier ist der neue Stand.",
    "error.not_your_turn": "Du bist nicht am Zug.",
    "error.rate_limited": "Etwas langsamer, bitte.",
    "error.not_started": "Das Spiel hat noch nicht begonnen.",
    "error.bad_token": "Dieser Platz-Link gilt nicht (mehr).",
    "error.bad_message": "Diese Anfrage nimmt der Server nicht an.",
    "error.too_large": "Das ist zu viel Text.",
    "error.not_found": "Diesen Tisch gibt es nicht (mehr).",
    "error.not_over": "Dieses Spiel ist noch nicht zu Ende.",
    "error.taken": "Jemand war schneller: Dieser Platz ist schon besetzt.",
    "error.name_too_long": "Dieser Name ist zu lang.",
    "error.title_too_long": "Dieser Titel ist zu lang.",
    "error.server_error": "Auf dem Server ist etwas schiefgegangen. Bitte versuch es noch einmal.",
    "table.gameOver": "Spielende",
    "table.rank": "Platz",
    "table.player": "Spieler",
    "table.toReplay": "Wiederholung ansehen",
    "table.toLobby": "Zurück zur Lobby",
    "table.reason": "Grund: {reason}",
    "table.leftWith": "Karten übrig",

    "mm.hand": "Deine Hand",
    "mm.top": "Oberste Karte",
    "mm.drawPile": "Stapel: {n}",
    "mm.draw": "Karte ziehen",
    "mm.pass": "Behalten (passen)",
    "mm.passNothing": "Passen",
    "mm.take": "{n} Karten nehmen",
    "mm.wish": "Gewünscht: {suit}",
    "mm.penalty": "Strafe offen: {n} Karten — spiel eine Sieben oder nimm sie",
    "mm.penaltyOther": "Strafe offen: {n} Karten",
    "mm.drawn": "Du hast {card} gezogen: spielen oder behalten.",
    "mm.pickSuit": "Welche Farbe wünschst du dir?",
    "mm.cancel": "Abbrechen",
    "mm.playable": "spielbar",
    "mm.notPlayable": "jetzt nicht spielbar",
    "mm.direction": "Richtung: {dir}",
    "mm.dir.cw": "im Uhrzeigersinn ↻",
    "mm.dir.ccw": "gegen den Uhrzeigersinn ↺",
    "mm.points": "Punkte",
    "mm.reason.out": "jemand hat keine Karten mehr",
    "mm.reason.stalemate": "niemand kann legen oder ziehen",
    "mm.reason.move_limit": "die Zuggrenze ist erreicht",
    "mm.mau": "Mau!",
    "mm.maumau": "Mau-Mau!",

    "am.flip": "Umdrehen!",
    "am.flipAria": "Die oberste Karte deines Stapels umdrehen",
    "am.stack": "Stapel: {n}",
    "am.chips": "Chips: {n}",
    "am.chipsLeft": "Chips übrig: {n}",
    "am.pile": "Ablage: {n}",
    "am.pileEmpty": "leere Ablage",
    "am.call": "Maus, pass auf, die Katze kommt!",
    "am.chase": "{chaser} jagt die Maus von {owner}",
    "am.attempts": "Versuche übrig: {n}",
    "am.role.owner": "hat die Maus",
    "am.role.chaser": "jagt",
    "am.stackCol": "Karten im Stapel",
    "am.chipsCol": "Chips",
    "am.reason.chips": "der letzte Chip ist weg",
    "am.reason.empty_stack": "ein Stapel ist leer",
    "am.reason.endless": "das Spiel ginge endlos weiter",

    "replay.heading": "Wiederholung",
    "replay.first": "Anfang",
    "replay.prev": "Zurück",
    "replay.next": "Weiter",
    "replay.last": "Ende",
    "replay.step": "Zug {i} von {n}",
    "replay.start": "Das Austeilen",
    "replay.download": "Aufzeichnung herunterladen (JSON)",
    "replay.keys": "Mit den Pfeiltasten ← → durch das Spiel gehen.",
    "replay.notOver": "Dieses Spiel läuft noch; die Wiederholung gibt es danach.",

    "suit.C": "Kreuz",
    "suit.S": "Pik",
    "suit.H": "Herz",
    "suit.D": "Karo",
    "suitLetter.C": "Kr",
    "suitLetter.S": "P",
    "suitLetter.H": "H",
    "suitLetter.D": "Ka",
    "rank.7": "Sieben",
    "rank.8": "Acht",
    "rank.9": "Neun",
    "rank.T": "Zehn",
    "rank.J": "Bube",
    "rank.Q": "Dame",
    "rank.K": "König",
    "rank.A": "Ass",
    "card.name": "{suit}-{rank}",
    "face.J": "B",
    "face.Q": "D",
    "face.K": "K",
    "face.A": "A",
    "face.cheese": "KÄSE",
    "face.mouse": "MAUS",
    "face.cat": "KATZE",
    "card.back": "verdeckte Karte",
    "card.cheese": "Käse",
    "card.mouse": "Maus mit {n} Pfoten",
    "card.mouse1": "Maus mit 1 Pfote",
    "card.cat": "Katze",

    "mm.ev.deal.one": "{name} hat 1 Karte bekommen",
    "mm.ev.deal.other": "{name} hat {n} Karten bekommen",
    "mm.ev.dealOwn": "{name} bekommt {cards}",
    "mm.ev.start": "Das Spiel beginnt mit {card}",
    "mm.ev.play": "{name} spielt {card}",
    "mm.ev.wish": "{name} wünscht sich {suit}",
    "mm.ev.draw.one": "{name} zieht eine Karte",
    "mm.ev.draw.other": "{name} zieht {n} Karten",
    "mm.ev.drawOwn": "{name} zieht {cards}",
    "mm.ev.penalty.one": "{name} droht eine Strafe von 1 Karte",
    "mm.ev.penalty.other": "{name} droht eine Strafe von {n} Karten",
    "mm.ev.take.one": "{name} nimmt die Strafe: 1 Karte",
    "mm.ev.take.other": "{name} nimmt die Strafe: {n} Karten",
    "mm.ev.skip": "{name} muss aussetzen",
    "mm.ev.reverseCw": "{name} dreht die Richtung um: jetzt im Uhrzeigersinn",
    "mm.ev.reverseCcw": "{name} dreht die Richtung um: jetzt gegen den Uhrzeigersinn",
    "mm.ev.pass": "{name} passt",
    "mm.ev.mau": "{name}: Mau!",
    "mm.ev.mau_mau": "{name}: Mau-Mau!",
    "mm.ev.jack_no_win": "{name} darf nicht mit einem Buben gewinnen und zieht eine Karte",
    "mm.ev.reshuffle.one": "Die Ablage wurde zum neuen Stapel gemischt (1 Karte)",
    "mm.ev.reshuffle.other": "Die Ablage wurde zum neuen Stapel gemischt ({n} Karten)",
    "mm.ev.end": "Spielende: {reason}",
    "am.ev.deal": "Die Karten sind verteilt: {stacks} Karten je Stapel",
    "am.ev.start": "Die Ablage beginnt mit {card}",
    "am.ev.flip": "{name} dreht {card} um",
    "am.ev.call.one": "{name} dreht eine Maus mit 1 Pfote um: „Maus, pass auf, die Katze kommt!“ {chaser} jagt sie",
    "am.ev.call.other": "{name} dreht eine Maus mit {n} Pfoten um: „Maus, pass auf, die Katze kommt!“ {chaser} jagt sie",
    "am.ev.chase.one": "{chaser} jagt die Maus von {owner}: noch 1 Versuch",
    "am.ev.chase.other": "{chaser} jagt die Maus von {owner}: noch {n} Versuche",
    "am.ev.catch": "Die Katze von {name} fängt die Maus von {owner}!",
    "am.ev.escape": "Die Maus von {name} ist {chaser} entwischt",
    "am.ev.pile_won": "{name} gewinnt die Ablage ({n} Karten)",
    "am.ev.pile_won_chip.one": "{name} gewinnt die Ablage ({cards} Karten) und einen Chip — noch 1 Chip",
    "am.ev.pile_won_chip.other": "{name} gewinnt die Ablage ({cards} Karten) und einen Chip — noch {n} Chips",
    "am.ev.new_pile": "{name} beginnt eine neue Ablage mit {card}",
    "am.ev.end": "Spielende: {reason}",
    "ev.other": "{type}",
  },
};

const KEY = "ml_lang";
const listeners = [];

function detect() {
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch (e) {
    saved = null;
  }
  if (saved && STRINGS[saved]) return saved;
  const nav = (navigator.language || "en").toLowerCase();
  return nav.startsWith("de") ? "de" : "en";
}

let lang = detect();

export function getLang() {
  return lang;
}

export function setLang(next) {
  if (!STRINGS[next]) return;
  lang = next;
  try {
    localStorage.setItem(KEY, next);
  } catch (e) {
    /* private mode: the choice lasts for this page only */
  }
  document.documentElement.lang = next;
  applyI18n(document);
  for (const fn of listeners) fn(next);
}

export function onLangChange(fn) {
  listeners.push(fn);
}

/** The string `key` in the current language with `{name}` placeholders filled from `params`. */
export function t(key, params = {}) {
  const table = STRINGS[lang] || STRINGS.en;
  let s = table[key];
  if (s === undefined) s = STRINGS.en[key];
  if (s === undefined) return key;
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** `key` + ".one" for n = 1, else `key` + ".other", with `{n}` filled in as well. */
export function tn(key, n, params = {}) {
  return t(`${key}.${n === 1 ? "one" : "other"}`, { ...params, n });
}

/** Fill every element marked with data-i18n (text), data-i18n-aria, data-i18n-placeholder, data-i18n-title. */
export function applyI18n(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
}

/** The switch button every page has: it names the other language. */
export function mountLangSwitch(button) {
  const render = () => {
    button.textContent = t("lang.switch");
    button.setAttribute("aria-label", t("lang.switchAria"));
    button.lang = lang === "de" ? "en" : "de";
  };
  button.addEventListener("click", () => setLang(lang === "de" ? "en" : "de"));
  onLangChange(render);
  render();
}

export function initI18n() {
  document.documentElement.lang = lang;
  applyI18n(document);
}

// ---------------------------------------------------------------- card and event names

export function suitName(s) {
  return t("suit." + s);
}

/** "seven of hearts" / "Herz-Sieben" for a Mau-Mau card; Aus die Maus cards by kind. */
export function cardName(card) {
  if (!card) return "";
  if (card === "cheese") return t("card.cheese");
  if (card === "cat") return t("card.cat");
  const m = /^mouse(\d)$/.exec(card);
  if (m) return m[1] === "1" ? t("card.mouse1") : t("card.mouse", { n: m[1] });
  if (card.length === 2) return t("card.name", { rank: t("rank." + card[0]), suit: t("suit." + card[1]) });
  return card;
}

/** A bot's level ("random", "heuristic", ...) for people; unknown levels as they are. */
export function botLevel(kind) {
  const s = t("bot." + kind);
  return s === "bot." + kind ? kind : s;
}

/** The name a seat shows: people by their own name, bots by level and seat, in the page's language. */
export function seatLabel(seatInfo, seat) {
  if (seatInfo && seatInfo.kind === "bot" && seatInfo.bot) return t("bot.name", { level: botLevel(seatInfo.bot), n: seat + 1 });
  if (seatInfo && seatInfo.taken === false) return t("common.seat", { n: seat + 1 }); // nobody sat down yet
  return seatInfo && seatInfo.name ? seatInfo.name : t("common.seat", { n: seat + 1 });
}

export function reasonText(game, reason) {
  const key = (game === "aus-die-maus" ? "am.reason." : "mm.reason.") + reason;
  const s = t(key);
  return s === key ? reason : s;
}

/** The page's words for an error `code`; the server's `message` when the page has none. */
export function errorText(code, message) {
  const key = "error." + code;
  const s = code ? t(key) : key;
  return s === key ? message : s;
}

/** A table's title: the one its creator gave, else "<game> at <name>'s" in the page's language. */
export function tableTitle(table, gameTitle) {
  if (!table) return "";
  if (table.title) return table.title;
  const game = gameTitle || table.game;
  const host = (table.seats || []).find((s) => s.kind === "human" && s.taken && s.name);
  return host ? t("table.defaultTitle", { game, name: host.name }) : game;
}
