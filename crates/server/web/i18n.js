// @ts-check
// The table's words in English and Romanian, chosen from the browser's language (a switch overrides it).

const STRINGS = {
  en: {
    title: "Carcassonne",
    lobby: "Games", newGame: "New game", rules: "Rules", language: "Language",
    openGames: "Open games", runningGames: "Running", finishedGames: "Finished", noGames: "No games yet.",
    join: "Join", watch: "Watch", replay: "Replay", play: "Play", seatsOpen: "{n} open",
    seats: "Seats", seat: "Seat {n}", person: "Person", bot: "Bot", openSeat: "Open (anyone may join)",
    name: "Name", level: "Level", color: "Colour", addSeat: "Add a seat", removeSeat: "Remove",
    expansions: "Expansions", options: "Rule options", defaultValue: "default", create: "Create the game",
    invites: "Invite links", copy: "Copy", copied: "Copied", playHere: "Play here", hotSeat: "all seats at this browser",
    set_base: "Base game", set_am: "Abbey & Mayor", set_pd: "Princess & Dragon", set_cc: "Crop Circles", set_half: "Halflings",
    easy: "easy", medium: "medium", hard: "hard", greedy: "greedy", random: "random",
    turnOf: "{name}'s turn", yourTurn: "Your turn", waitingFor: "Waiting for {name}", gameOver: "Game over",
    stack: "{n} tiles left", confirm: "Confirm turn", takeBack: "Take back", hint: "Hint", autoConfirm: "Confirm my turns at once",
    rotate: "Rotate", rotateLeft: "Rotate left", rotateRight: "Rotate right", place: "Place", pass: "Pass",
    drawTile: "Draw a tile", noMeeple: "No figure", chooseAction: "All legal actions",
    decision_phase1: "Play a triangle or an abbey, or draw a tile", decision_place_tile: "Place the tile",
    decision_phase2: "Deploy a figure, or pass", decision_move_dragon: "Move the dragon (step {step})",
    decision_crop_choice: "Crop circle: choose the action", decision_crop_answer: "Crop circle: your answer",
    decision_princess: "The princess: send a knight home", decision_move_wagon: "Move your wagon",
    decision_draft: "Pick a triangle", decision_draw: "Drawing…", decision_start_of_turn: "Starting their turn",
    decision_game_over: "The game is over", decision_confirm: "Confirm your turn or take back",
    meeple: "meeple", mayor: "mayor", wagon: "wagon", barn: "barn", fairy: "fairy",
    score: "Score", meeples: "Meeples", tilesLeft: "Tiles left", log: "What happened", overlay: "Who holds what",
    finalScores: "Final scores", winner: "{names} won", winners: "{names} won together", backToLobby: "Back to the games",
    spectator: "Watching", hand: "Your triangles",
    ev_scored: "{who} scored {points} for a {feature}", ev_scored_none: "A {feature} was completed (nobody scores)",
    ev_final: "Final scoring: {who} {points} for a {feature}", ev_dragon: "{who} moved the dragon to {space}",
    ev_eaten: "The dragon ate {who}'s {kind}", ev_returned: "{who}'s {kind} went home", ev_volcano: "A volcano: the dragon flies to {space}",
    ev_fairy: "{who} moved the fairy", ev_fairy_points: "{who} scored {points} with the fairy", ev_game_ended: "The game ended",
    ev_discarded: "{tile} could not be placed and was discarded", ev_under_hill: "The hill took a tile out of play",
    feature_city: "city", feature_road: "road", feature_monastery: "monastery", feature_field: "field",
    feature_abbey: "abbey", feature_garden: "garden",
    letter_city: "C", letter_road: "R", letter_monastery: "M", letter_field: "F", close: "Close",
    step: "Step", start: "Start", end: "End", back: "Back", forward: "Forward",
    ruleAbout: "The rule", error: "Something went wrong: {msg}", reconnecting: "Reconnecting…",
    notFound: "No such game.", hintSays: "The bot suggests: {action}",
    module_base: "Base game", module_turn: "A turn", module_abbey: "The abbey", module_mayor: "The mayor", module_wagon: "The wagon",
    module_barn: "The barn", module_dragon: "The dragon", module_fairy: "The fairy", module_princess: "The princess",
    module_portal: "The magic portal", module_crop: "Crop circles", module_halflings: "Halflings", module_end: "The end of the game",
    module_variants: "Variants",
    summary_base: "Place a tile so that it fits, put a meeple on it if you like, and score what you complete.",
    summary_turn: "The order of everything that happens in a turn, with every module on.",
    summary_abbey: "Once a game, instead of drawing, fill a hole with your abbey: it closes everything around it.",
    summary_mayor: "A follower for cities only, as strong as the city has pennants.",
    summary_wagon: "A follower that, once its feature is scored, may move on to a neighbouring unfinished one.",
    summary_barn: "Stands where four field corners meet and takes the farmers' points.",
    summary_dragon: "Volcanoes bring it in; dragon tiles make it walk six steps, eating every figure on its way.",
    summary_fairy: "Protects a meeple from the dragon, gives a point each turn and a bonus when its feature scores.",
    summary_princess: "A princess tile added to a city sends one of its knights home.",
    summary_portal: "After placing a portal tile, deploy on any unoccupied feature of the board.",
    summary_crop: "A crop-circle tile lets every player add a figure beside one of theirs, or makes everyone take one back.",
    summary_halflings: "Half tiles held in hand and played instead of drawing; two share a space.",
    summary_end: "When the game ends, and what the final scoring counts.",
    summary_variants: "Every rule option the server knows, with the edition it comes from.",
    rulesIntro: "Each module has its page: the rules with their ids (the table links to them from each decision) and a worked example drawn as a small board.",
    example: "A worked example", valuesDefaultFirst: "values (the default first)", triangleScoring: "How triangles count ({v})",
    crop_A: "A — everyone may add a figure beside one of theirs", crop_B: "B — everyone takes one of theirs back",
    role_knight: "knights", role_highwayman: "highwaymen", role_farmer: "farmers",
    n_tiles: "{n} tiles", n_pennants: "{n} pennants", n_cities: "{n} completed cities",
    n_tiles_one: "1 tile", n_pennants_one: "1 pennant", n_cities_one: "1 completed city", stack_one: "1 tile left", abbey: "abbey", triangle: "triangles",
    reason_barn_placed: "barn placed", reason_barn_connected: "barn joined", reason_barns: "barns", reason_farmers: "farmers",
    tileFile: "Your own triangles (a tile file, .toml)", defaultPlayer: "Player {n}", defaultBot: "{level} bot",
    zoomIn: "Zoom in", zoomOut: "Zoom out", zoomFit: "Show the whole board",
    dragon_N: "Dragon one step north", dragon_E: "Dragon one step east", dragon_S: "Dragon one step south", dragon_W: "Dragon one step west",
    joinTitle: "Join the game", joinWho: "Playing: {names}", cancel: "Cancel",
    yourTurnTitle: "Your turn", soundToggle: "A chime when it is my turn (tab in the background)",
    boardLabel: "The board", featureAt: "{feature}, {where}",
    dir_N: "north", dir_E: "east", dir_S: "south", dir_W: "west", dir_NE: "north-east", dir_SE: "south-east", dir_SW: "south-west", dir_NW: "north-west", dir_L: "long side",
    spot_space: "Space {space} for the tile", spot_deploy: "{figure} on the {segment}", spot_barn: "barn at the {where} corner",
    spot_portal: "{figure} through the portal onto the {segment} at {space}", spot_wagon: "wagon onto the {segment} at {space}",
    spot_princess: "send {who}'s {figure} on the {segment} home", spot_fairy_next: "fairy beside {who}'s {figure} on the {segment} at {space}",
    spot_fairy_space: "fairy to {space}", spot_crop_add: "add a {figure} on the {segment} at {space}",
    spot_crop_remove: "take back {who}'s {figure} on the {segment} at {space}",
    landingTitle: "Carcassonne in your browser",
    landingWhat: "The tile-laying game for 2 to 6 players: the base game and four expansions (Abbey & Mayor, Princess & Dragon, Crop Circles, Halflings), against the computer or with friends. Nothing to install; the game is kept if you close the page.",
    playComputer: "Play against the computer", playComputerWhat: "One click: the base game against a medium bot.",
    playFriends: "Play with friends", playFriendsWhat: "Choose the seats and expansions, then send each friend their invite link, or play everyone at this screen.",
    newGameAll: "Every seat, expansion and rule option", howToPlay: "How to play",
    friendsHowTo: "Name the players and choose the expansions; after creating the game you get an invite link for each friend, or play everyone here.",
    colour_red: "red", colour_blue: "blue", colour_green: "green", colour_yellow: "yellow", colour_black: "black", colour_purple: "purple",
  },
  ro: {
    title: "Carcassonne",
    lobby: "Partide", newGame: "Partidă nouă", rules: "Reguli", language: "Limba",
    openGames: "Partide cu locuri libere", runningGames: "În desfășurare", finishedGames: "Încheiate", noGames: "Nicio partidă încă.",
    join: "Intră", watch: "Urmărește", replay: "Reluare", play: "Joacă", seatsOpen: "{n} libere",
    seats: "Locuri", seat: "Locul {n}", person: "Om", bot: "Robot", openSeat: "Liber (poate intra oricine)",
    name: "Nume", level: "Nivel", color: "Culoare", addSeat: "Adaugă un loc", removeSeat: "Scoate",
    expansions: "Extensii", options: "Opțiuni de reguli", defaultValue: "implicit", create: "Creează partida",
    invites: "Linkuri de invitație", copy: "Copiază", copied: "Copiat", playHere: "Joacă aici", hotSeat: "toate locurile în acest browser",
    set_base: "Jocul de bază", set_am: "Abația și primarul", set_pd: "Prințesa și dragonul", set_cc: "Cercuri în lan", set_half: "Jumi-juma",
    easy: "ușor", medium: "mediu", hard: "greu", greedy: "lacom", random: "la întâmplare",
    turnOf: "Rândul lui {name}", yourTurn: "E rândul tău", waitingFor: "Se așteaptă {name}", gameOver: "Partida s-a încheiat",
    stack: "{n} piese rămase", confirm: "Confirmă tura", takeBack: "Anulează", hint: "Sugestie", autoConfirm: "Confirmă-mi turele imediat",
    rotate: "Rotește", rotateLeft: "Rotește la stânga", rotateRight: "Rotește la dreapta", place: "Așază", pass: "Mai departe",
    drawTile: "Trage o piesă", noMeeple: "Nicio figură", chooseAction: "Toate acțiunile permise",
    decision_phase1: "Joacă un triunghi sau o abație, ori trage o piesă", decision_place_tile: "Așază piesa",
    decision_phase2: "Pune o figură sau treci mai departe", decision_move_dragon: "Mută dragonul (pasul {step})",
    decision_crop_choice: "Cerc în lan: alege acțiunea", decision_crop_answer: "Cerc în lan: răspunsul tău",
    decision_princess: "Prințesa: trimite un cavaler acasă", decision_move_wagon: "Mută-ți căruța",
    decision_draft: "Alege un triunghi", decision_draw: "Se trage…", decision_start_of_turn: "Își începe tura",
    decision_game_over: "Partida s-a încheiat", decision_confirm: "Confirmă tura sau anulează",
    meeple: "omuleț", mayor: "primar", wagon: "căruță", barn: "hambar", fairy: "zână",
    score: "Puncte", meeples: "Omuleți", tilesLeft: "Piese rămase", log: "Ce s-a întâmplat", overlay: "Cine ce deține",
    finalScores: "Scorul final", winner: "A câștigat {names}", winners: "Au câștigat împreună {names}", backToLobby: "Înapoi la partide",
    spectator: "Spectator", hand: "Triunghiurile tale",
    ev_scored: "{who} a marcat {points} pentru un {feature}", ev_scored_none: "Un {feature} a fost terminat (nu marchează nimeni)",
    ev_final: "Numărătoarea finală: {who} {points} pentru un {feature}", ev_dragon: "{who} a mutat dragonul la {space}",
    ev_eaten: "Dragonul a mâncat figura ({kind}) lui {who}", ev_returned: "Figura ({kind}) lui {who} s-a întors acasă",
    ev_volcano: "Un vulcan: dragonul zboară la {space}", ev_fairy: "{who} a mutat zâna", ev_fairy_points: "{who} a marcat {points} cu zâna",
    ev_game_ended: "Partida s-a încheiat", ev_discarded: "{tile} nu a putut fi așezată și a fost eliminată",
    ev_under_hill: "Dealul a scos o piesă din joc",
    feature_city: "oraș", feature_road: "drum", feature_monastery: "mănăstire", feature_field: "câmp",
    feature_abbey: "abație", feature_garden: "grădină",
    letter_city: "O", letter_road: "D", letter_monastery: "M", letter_field: "C", close: "Închide",
    step: "Pas", start: "Început", end: "Sfârșit", back: "Înapoi", forward: "Înainte",
    ruleAbout: "Regula", error: "Ceva n-a mers: {msg}", reconnecting: "Se reconectează…",
    notFound: "Nu există partida.", hintSays: "Robotul sugerează: {action}",
    module_base: "Jocul de bază", module_turn: "O tură", module_abbey: "Abația", module_mayor: "Primarul", module_wagon: "Căruța",
    module_barn: "Hambarul", module_dragon: "Dragonul", module_fairy: "Zâna", module_princess: "Prințesa",
    module_portal: "Coridorul fermecat", module_crop: "Cercuri în lan", module_halflings: "Jumi-juma", module_end: "Sfârșitul partidei",
    module_variants: "Variante",
    summary_base: "Așază o piesă astfel încât să se potrivească, pune un omuleț dacă vrei și marchează ce termini.",
    summary_turn: "Ordinea a tot ce se întâmplă într-o tură, cu toate modulele.",
    summary_abbey: "O dată pe partidă, în loc să tragi, umple o gaură cu abația: închide tot ce o înconjoară.",
    summary_mayor: "O figură doar pentru orașe, cu atâta putere câte steme are orașul.",
    summary_wagon: "O figură care, după ce elementul ei e marcat, poate trece pe unul vecin neterminat.",
    summary_barn: "Stă unde se întâlnesc patru colțuri de câmp și ia punctele țăranilor.",
    summary_dragon: "Vulcanii îl aduc; piesele cu dragon îl fac să meargă șase pași, mâncând orice figură din cale.",
    summary_fairy: "Apără un omuleț de dragon, dă un punct pe tură și un bonus când elementul ei e marcat.",
    summary_princess: "O piesă cu prințesă adăugată unui oraș trimite acasă unul dintre cavalerii lui.",
    summary_portal: "După ce așezi o piesă cu portal, poți pune o figură pe orice element liber de pe tablă.",
    summary_crop: "Un cerc în lan le dă tuturor o figură în plus lângă una de-a lor, sau îi face pe toți să-și ia una înapoi.",
    summary_halflings: "Jumătăți de piesă ținute în mână și jucate în loc de tras; două împart un loc.",
    summary_end: "Când se încheie partida și ce se numără la final.",
    summary_variants: "Toate opțiunile de reguli ale serverului, cu ediția din care vin.",
    rulesIntro: "Fiecare modul are pagina lui: regulile cu identificatorii lor (masa trimite la ele de la fiecare decizie) și un exemplu desenat pe o tablă mică. Textul regulilor este în engleză.",
    example: "Un exemplu", valuesDefaultFirst: "valori (prima e cea implicită)", triangleScoring: "Cum se numără triunghiurile ({v})",
    crop_A: "A — fiecare poate adăuga o figură lângă una de-a sa", crop_B: "B — fiecare își ia înapoi una de-a sa",
    role_knight: "cavaleri", role_highwayman: "tâlhari", role_farmer: "țărani",
    n_tiles: "{n} piese", n_pennants: "{n} steme", n_cities: "{n} orașe terminate",
    n_tiles_one: "1 piesă", n_pennants_one: "1 stemă", n_cities_one: "1 oraș terminat", stack_one: "1 piesă rămasă",
    n_tiles_other: "{n} de piese", n_pennants_other: "{n} de steme", n_cities_other: "{n} de orașe terminate",
    stack_other: "{n} de piese rămase", abbey: "abație", triangle: "triunghiuri",
    reason_barn_placed: "hambar așezat", reason_barn_connected: "hambar unit", reason_barns: "hambare", reason_farmers: "țărani",
    tileFile: "Triunghiurile tale (un fișier de piese, .toml)", defaultPlayer: "Jucătorul {n}", defaultBot: "Robot {level}",
    zoomIn: "Mărește", zoomOut: "Micșorează", zoomFit: "Arată toată tabla",
    dragon_N: "Dragonul un pas spre nord", dragon_E: "Dragonul un pas spre est", dragon_S: "Dragonul un pas spre sud", dragon_W: "Dragonul un pas spre vest",
    joinTitle: "Intră în partidă", joinWho: "Joacă: {names}", cancel: "Renunță",
    yourTurnTitle: "E rândul tău", soundToggle: "Un sunet când e rândul meu (fila în fundal)",
    boardLabel: "Tabla", featureAt: "{feature}, {where}",
    dir_N: "nord", dir_E: "est", dir_S: "sud", dir_W: "vest", dir_NE: "nord-est", dir_SE: "sud-est", dir_SW: "sud-vest", dir_NW: "nord-vest", dir_L: "latura lungă",
    spot_space: "Locul {space} pentru piesă", spot_deploy: "{figure} pe {segment}", spot_barn: "hambar în colțul {where}",
    spot_portal: "{figure} prin portal pe {segment}, la {space}", spot_wagon: "căruța pe {segment}, la {space}",
    spot_princess: "trimite acasă figura ({figure}) lui {who} de pe {segment}", spot_fairy_next: "zâna lângă figura ({figure}) lui {who} de pe {segment}, la {space}",
    spot_fairy_space: "zâna la {space}", spot_crop_add: "adaugă: {figure} pe {segment}, la {space}",
    spot_crop_remove: "ia înapoi figura ({figure}) lui {who} de pe {segment}, la {space}",
    landingTitle: "Carcassonne în browser",
    landingWhat: "Jocul cu piese pentru 2–6 jucători: jocul de bază și patru extensii (Abația și primarul, Prințesa și dragonul, Cercuri în lan, Jumi-juma), cu calculatorul sau cu prietenii. Nu instalezi nimic; partida rămâne păstrată dacă închizi pagina.",
    playComputer: "Joacă cu calculatorul", playComputerWhat: "Un clic: jocul de bază cu un robot mediu.",
    playFriends: "Joacă cu prietenii", playFriendsWhat: "Alege locurile și extensiile, apoi trimite fiecărui prieten linkul lui de invitație, sau jucați toți la acest ecran.",
    newGameAll: "Toate locurile, extensiile și opțiunile de reguli", howToPlay: "Cum se joacă",
    friendsHowTo: "Dă nume jucătorilor și alege extensiile; după ce creezi partida primești câte un link de invitație pentru fiecare prieten, sau jucați toți aici.",
    colour_red: "roșu", colour_blue: "albastru", colour_green: "verde", colour_yellow: "galben", colour_black: "negru", colour_purple: "mov",
  },
};

export const LANGUAGES = { en: "English", ro: "Română" };

// Outside a browser (the unit tests under Node) there is no storage and no document: English, kept nowhere.
const store = typeof localStorage === "undefined" ? null : localStorage;
let lang = store?.getItem("carc.lang") || ((globalThis.navigator?.language || "en").toLowerCase().startsWith("ro") ? "ro" : "en");

export function language() { return lang; }

export function setLanguage(l) {
  if (!STRINGS[l]) return;
  lang = l;
  store?.setItem("carc.lang", l);
  if (typeof document !== "undefined") document.documentElement.lang = l;
}

// The plural category of `n` in language `l` (`one`, `few`, `other`, …), by the language's own rules.
const pluralRules = new Map();
export function pluralCategory(l, n) {
  if (!pluralRules.has(l)) pluralRules.set(l, new Intl.PluralRules(l));
  return pluralRules.get(l).select(n);
}

// The text for `key` in language `l`, with `{name}` placeholders filled from `params`. With a count `n`, the form
// for its plural category (`key_one`, `key_few`, `key_other`, …) is used where the language has one, else `key`:
// Romanian says "1 piesă", "19 piese", "20 de piese", "101 piese".
export function translate(l, key, params = {}) {
  const table = STRINGS[l] || STRINGS.en;
  let s;
  if (typeof params.n === "number") {
    const form = `${key}_${pluralCategory(l, params.n)}`;
    s = table[form] ?? (table[key] === undefined ? STRINGS.en[`${key}_${pluralCategory("en", params.n)}`] : undefined);
  }
  s ??= table[key] ?? STRINGS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k) => (params[k] ?? `{${k}}`));
}

// The text for `key` in the table's language.
export function t(key, params = {}) {
  return translate(lang, key, params);
}
