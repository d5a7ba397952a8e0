//! The HTTP routes (docs/server-api.md).

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::{get, post};
use carcassonne::catalogue::{TileEntry, tile_entries_from_toml};
use carcassonne::{Player, Setup};
use carcassonne_ai::BotSpec;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::guard::{Client, spend_creation};
use crate::room::{ActError, Change, Room, Seat};
use crate::views::{Created, CreatedSeat, LobbyLine, RoomView, SeatView};
use crate::{AppState, Handle, Update, token};

/// The largest request body accepted (a game with a player's own tile file fits easily).
pub(crate) const MAX_BODY: usize = 256 * 1024;

/// The longest seat name.
const MAX_NAME: usize = 40;

pub(crate) fn router(state: Arc<AppState>) -> Router {
    let timeout = state.limits.request_timeout;
    Router::new()
        .route("/", get(crate::web::page))
        .route("/play/{id}", get(crate::web::page))
        .route("/new", get(crate::web::page))
        .route("/replay/{id}", get(crate::web::page))
        .route("/rules", get(crate::web::page))
        .route("/rules/{*section}", get(crate::web::page))
        .route("/assets/{*path}", get(crate::web::asset))
        .route("/health", get(health))
        .route("/api/games", get(lobby).post(create))
        .route("/api/games/{id}", get(view))
        .route("/api/games/{id}/actions", post(act))
        .route("/api/games/{id}/take-back", post(take_back))
        .route("/api/games/{id}/confirm", post(confirm))
        .route("/api/games/{id}/settings", post(settings))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/events", get(events))
        .route("/api/games/{id}/tiles", get(tiles))
        .route("/api/games/{id}/view", get(view_at))
        .route("/api/games/{id}/hint", get(hint))
        .route("/api/games/{id}/chat", get(chat).post(say))
        .route("/api/rules", get(rules))
        .route("/api/docs/rules.md", get(crate::web::rules_md))
        .route("/api/examples", get(crate::web::examples))
        .route("/api/examples/{name}", get(crate::web::example))
        .route("/api/games/{id}/ws", get(crate::ws::upgrade))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(crate::guard::json_bodies))
        .layer(axum::middleware::from_fn(crate::guard::security_headers))
        // A declared length over the limit is refused before the body is waited for.
        .layer(tower_http::limit::RequestBodyLimitLayer::new(MAX_BODY))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, timeout))
        .layer(
            tower_http::trace::TraceLayer::new_for_http()
                .make_span_with(tower_http::trace::DefaultMakeSpan::new().level(tracing::Level::DEBUG))
                .on_response(tower_http::trace::DefaultOnResponse::new().level(tracing::Level::DEBUG)),
        )
        .with_state(state)
}

async fn not_found() -> Response {
    (StatusCode::NOT_FOUND, Json(json!({ "error": "no such endpoint (see docs/server-api.md)", "code": "not_found" })))
        .into_response()
}

async fn health(State(s): State<Arc<AppState>>) -> Json<Value> {
    let (people, bots) = s.bots.queued();
    Json(json!({
        "status": "ok",
        "db": s.store.kind(),
        "games_loaded": s.loaded(),
        "sockets_open": s.sockets.lock().map(|t| t.len()).unwrap_or(0),
        "bot_threads": s.bots.threads(),
        "bot_queue": { "people": people, "bots": bots },
    }))
}

/// Read a JSON body, or say what is wrong with it (400).
fn body<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| ApiError::BadRequest(format!("the body is not the JSON expected: {e}")))
}

/// The seat whose token the request carries: `None` without an `Authorization` header, 401 for a token that is no
/// seat's.
fn seat_of(room: &Room, headers: &HeaderMap) -> Result<Option<Player>, ApiError> {
    let Some(v) = headers.get(header::AUTHORIZATION) else { return Ok(None) };
    let token = v
        .to_str()
        .ok()
        .and_then(|s| s.strip_prefix("Bearer "))
        .ok_or(ApiError::Unauthorized("write the header as `Authorization: Bearer <token>`"))?;
    seat_by_token(room, token.trim()).map(Some)
}

/// The seat holding `token`, or 401.
pub(crate) fn seat_by_token(room: &Room, token: &str) -> Result<Player, ApiError> {
    let mut found = None;
    // Every seat is compared, each in constant time.
    for (i, s) in room.seats.iter().enumerate() {
        if let Some(h) = &s.token_hash
            && token::matches(token, h)
        {
            found = Some(Player(i as u8));
        }
    }
    found.ok_or(ApiError::Unauthorized("this token is not a seat's of this game"))
}

fn required_seat(room: &Room, headers: &HeaderMap) -> Result<Player, ApiError> {
    seat_of(room, headers)?.ok_or(ApiError::Unauthorized("this needs a seat's token: `Authorization: Bearer <token>`"))
}

/// A person or a bot, as the creator asks for it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatRequest {
    #[serde(default)]
    name: Option<String>,
    /// A bot spec (`easy`, `medium`, `hard`, `greedy`, …); absent for a person.
    #[serde(default)]
    bot: Option<String>,
    /// A person's seat left for someone to join from the lobby.
    #[serde(default)]
    open: bool,
    #[serde(default)]
    auto_confirm: bool,
    /// `red`, `blue`, `green`, `yellow`, `black` or `purple`; by default the first not taken.
    #[serde(default)]
    colour: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    seats: Vec<SeatRequest>,
    #[serde(default)]
    sets: Option<Vec<String>>,
    /// Rule options by key (docs/rules.md §V); values are strings, numbers or booleans.
    #[serde(default)]
    rules: BTreeMap<String, Value>,
    #[serde(default)]
    custom_tiles: Vec<TileEntry>,
    /// A tile file (docs/tile-format.md) as text: a player's own Halflings triangles, say.
    #[serde(default)]
    tile_file: Option<String>,
}

/// Characters a name may not hold: controls and line separators, the bidirectional formatting characters (which can
/// reorder what is shown around a name), and the invisible ones ([`crate::text`]).
pub(crate) fn hidden_char(c: char) -> bool {
    !crate::text::name_char(c)
}

fn seat_name(requested: Option<&str>, i: usize, bot: Option<&BotSpec>) -> Result<String, ApiError> {
    let name = requested.map(str::trim).filter(|n| !n.is_empty());
    match name {
        Some(n) if n.chars().count() > MAX_NAME => {
            Err(ApiError::BadRequest(format!("seat {}: a name has at most {MAX_NAME} characters", i + 1)))
        }
        Some(n) if n.chars().any(hidden_char) => Err(ApiError::BadRequest(format!(
            "seat {}: a name cannot hold control, direction-changing or invisible characters",
            i + 1
        ))),
        Some(n) => Ok(n.to_string()),
        None => Ok(match bot {
            Some(b) => format!("{b} bot"),
            None => format!("Player {}", i + 1),
        }),
    }
}

/// A game's own tiles stay within the limits: so many kinds and copies, short ids and names.
fn check_custom_tiles(limits: &crate::Limits, tiles: &[TileEntry]) -> Result<(), ApiError> {
    if tiles.len() > limits.max_custom_kinds {
        return Err(ApiError::BadRequest(format!(
            "{} tile kinds of your own: a game takes at most {}",
            tiles.len(),
            limits.max_custom_kinds
        )));
    }
    let copies: u32 = tiles.iter().map(|t| u32::from(t.count)).sum();
    if copies > limits.max_custom_tiles {
        return Err(ApiError::BadRequest(format!(
            "{copies} tiles of your own: a game takes at most {}",
            limits.max_custom_tiles
        )));
    }
    for t in tiles {
        let id: String = t.id.chars().take(crate::limits::MAX_TILE_ID).collect();
        if t.id.chars().count() > crate::limits::MAX_TILE_ID || t.id.chars().any(hidden_char) {
            return Err(ApiError::BadRequest(format!(
                "tile `{id}…`: an id has at most {} visible characters",
                crate::limits::MAX_TILE_ID
            )));
        }
        if t.name.chars().count() > 200 || t.segments.len() > 64 || t.segments.iter().any(|l| l.len() > 200) {
            return Err(ApiError::BadRequest(format!("tile `{id}`: its name or segment lines are too long")));
        }
    }
    Ok(())
}

async fn create(State(s): State<Arc<AppState>>, client: Client, bytes: Bytes) -> Result<Response, ApiError> {
    let req: CreateRequest = body(&bytes)?;
    spend_creation(&s, client)?;
    if !(2..=6).contains(&req.seats.len()) {
        return Err(ApiError::BadRequest(format!("{} seats: a game has 2 to 6 players", req.seats.len())));
    }
    let mut setup = Setup::new(req.seats.len() as u8);
    if let Some(sets) = req.sets {
        setup.sets = sets;
    }
    setup.seed = token::random_bytes::<8>()
        .map(u64::from_le_bytes)
        .map_err(|e| ApiError::Unavailable(format!("no randomness from the operating system: {e}")))?;
    setup.switch_on_set_modules(req.rules.keys().any(|k| k.starts_with("modules.")));
    for (k, v) in &req.rules {
        let v = match v {
            Value::String(s) => s.clone(),
            Value::Bool(_) | Value::Number(_) => v.to_string(),
            _ => return Err(ApiError::BadRequest(format!("rule `{k}`: give its value as a string"))),
        };
        setup.rules.set(k, &v).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    }
    setup.custom_tiles = req.custom_tiles;
    if let Some(text) = &req.tile_file {
        let entries = tile_entries_from_toml(text, "tile_file").map_err(|e| ApiError::BadRequest(e.to_string()))?;
        setup.custom_tiles.extend(entries);
    }
    check_custom_tiles(&s.limits, &setup.custom_tiles)?;
    // Colours: the ones asked for, then the first free ones in palette order.
    let mut colours: Vec<Option<&'static str>> = Vec::new();
    for (i, r) in req.seats.iter().enumerate() {
        let c = match &r.colour {
            Some(name) => Some(crate::room::colour(name).ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "seat {}: colour `{name}`: choose one of {}",
                    i + 1,
                    crate::room::COLOURS.join(", ")
                ))
            })?),
            None => None,
        };
        if c.is_some() && colours.contains(&c) {
            return Err(ApiError::BadRequest(format!("seat {}: two seats cannot have one colour", i + 1)));
        }
        colours.push(c);
    }
    for i in 0..colours.len() {
        if colours[i].is_none() {
            colours[i] = crate::room::COLOURS.iter().copied().find(|c| !colours.contains(&Some(*c)));
        }
    }
    let mut seats = Vec::new();
    let mut tokens = Vec::new();
    for (i, r) in req.seats.iter().enumerate() {
        let bot = match &r.bot {
            Some(b) => Some(b.parse::<BotSpec>().map_err(|e| ApiError::BadRequest(format!("seat {}: {e}", i + 1)))?),
            None => None,
        };
        if bot.is_some() && r.open {
            return Err(ApiError::BadRequest(format!("seat {}: a bot's seat cannot be open", i + 1)));
        }
        if let Some(b) = &bot {
            s.limits.check_seat_bot(b).map_err(|e| ApiError::BadRequest(format!("seat {}: {e}", i + 1)))?;
        }
        let mut name = seat_name(r.name.as_deref(), i, bot.as_ref())?;
        if r.name.as_deref().is_none_or(|n| n.trim().is_empty()) {
            name = crate::numbered(name, seats.iter().map(|s: &Seat| s.name.as_str()));
        }
        let token = if bot.is_none() && !r.open {
            Some(token::new_token().map_err(|e| ApiError::Unavailable(format!("no randomness: {e}")))?)
        } else {
            None
        };
        seats.push(Seat {
            name,
            bot,
            open: r.open,
            token_hash: token.as_deref().map(token::hash),
            auto_confirm: r.auto_confirm,
            colour: colours[i].unwrap_or("red"),
        });
        tokens.push(token);
    }
    let h = s.create(setup, seats).await?;
    let room = h.room.lock().await;
    let seats = room
        .public_seats()
        .into_iter()
        .zip(tokens)
        .map(|(seat, token)| CreatedSeat {
            seat,
            invite: token.as_ref().map(|t| format!("/play/{}#token={t}", room.id)),
            token,
        })
        .collect();
    let out = Created { id: room.id.clone(), seats, view: room.view(None) };
    Ok((StatusCode::CREATED, Json(out)).into_response())
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LobbyQuery {
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    limit: Option<i64>,
    #[serde(default)]
    offset: Option<i64>,
}

async fn lobby(State(s): State<Arc<AppState>>, Query(q): Query<LobbyQuery>) -> Result<Json<Value>, ApiError> {
    let status = match q.status.as_deref() {
        None | Some("") | Some("all") => None,
        Some(st @ ("running" | "finished" | "abandoned" | "open")) => Some(st),
        Some(other) => {
            return Err(ApiError::BadRequest(format!(
                "status `{other}`: write running, finished, abandoned, open or all"
            )));
        }
    };
    let limit = q.limit.unwrap_or(200);
    if !(1..=1_000).contains(&limit) {
        return Err(ApiError::BadRequest(format!("limit {limit}: ask for 1 to 1000 games")));
    }
    let offset = q.offset.unwrap_or(0);
    if !(0..=1_000_000).contains(&offset) {
        return Err(ApiError::BadRequest(format!("offset {offset}: skip 0 to 1000000 games")));
    }
    let games = s.store.lobby(status, limit, offset).await?;
    let list: Vec<LobbyLine> = games
        .into_iter()
        .map(|g| LobbyLine {
            open_seats: g.seats.iter().filter(|s| s.open).count(),
            seats: g
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| SeatView::new(i, &s.name, s.bot.clone(), s.open, s.colour.as_deref()))
                .collect(),
            id: g.id,
            created_at: g.created_at,
            status: g.status,
        })
        .collect();
    Ok(Json(json!({ "games": list })))
}

async fn view(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<RoomView>, ApiError> {
    let h = s.handle(&id).await?;
    let room = h.room.lock().await;
    let seat = seat_of(&room, &headers)?;
    Ok(Json(room.view(seat)))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionRequest {
    action: String,
    version: usize,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct VersionRequest {
    version: usize,
}

fn check_version(room: &Room, version: usize) -> Result<(), ApiError> {
    if version == room.version() {
        return Ok(());
    }
    Err(ApiError::Conflict {
        message: format!("the game is at version {}, not {version}: another action came first", room.version()),
        version: room.version(),
    })
}

/// A request chosen at a version of the game.
trait Versioned: DeserializeOwned {
    fn version(&self) -> usize;
}

impl Versioned for ActionRequest {
    fn version(&self) -> usize {
        self.version
    }
}

impl Versioned for VersionRequest {
    fn version(&self) -> usize {
        self.version
    }
}

/// A seat changes the game: its token, then the body, then the version are checked; `op` makes the change, which is
/// stored and told before the seat gets its new view.
async fn seat_change<R: Versioned>(
    s: &Arc<AppState>,
    id: &str,
    headers: &HeaderMap,
    bytes: &Bytes,
    cause: &'static str,
    op: impl FnOnce(&mut Room, Player, &R) -> Result<Change, ActError>,
) -> Result<Json<RoomView>, ApiError> {
    let h = s.handle(id).await?;
    let mut room = h.room.lock().await;
    let seat = required_seat(&room, headers)?;
    let req: R = body(bytes)?;
    check_version(&room, req.version())?;
    let saved = room.save();
    let change = op(&mut room, seat, &req).map_err(|e| ApiError::from_act(e, room.version()))?;
    tracing::debug!(game = %room.id, %seat, cause, "change");
    s.commit(&h, &mut room, saved, change, cause).await?;
    Ok(Json(room.view(Some(seat))))
}

async fn act(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Json<RoomView>, ApiError> {
    seat_change(&s, &id, &headers, &bytes, "action", |room, seat, req: &ActionRequest| room.act(seat, &req.action))
        .await
}

async fn take_back(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Json<RoomView>, ApiError> {
    seat_change(&s, &id, &headers, &bytes, "take_back", |room, seat, _: &VersionRequest| room.take_back(seat)).await
}

async fn confirm(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Json<RoomView>, ApiError> {
    seat_change(&s, &id, &headers, &bytes, "confirm", |room, seat, _: &VersionRequest| room.confirm(seat)).await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SettingsRequest {
    auto_confirm: bool,
}

async fn settings(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Json<RoomView>, ApiError> {
    let h = s.handle(&id).await?;
    let mut room = h.room.lock().await;
    let seat = required_seat(&room, &headers)?;
    let req: SettingsRequest = body(&bytes)?;
    s.set_auto_confirm(&h, &mut room, seat, req.auto_confirm).await?;
    Ok(Json(room.view(Some(seat))))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    seat: String,
    #[serde(default)]
    name: Option<String>,
}

fn parse_seat(s: &str, players: usize) -> Result<Player, ApiError> {
    let digits = s.trim().strip_prefix(['P', 'p']).unwrap_or(s.trim());
    match digits.parse::<usize>() {
        Ok(n) if (1..=players).contains(&n) => Ok(Player((n - 1) as u8)),
        _ => Err(ApiError::BadRequest(format!("`{s}` is not a seat of this game (P1 to P{players})"))),
    }
}

async fn join(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
    client: Client,
    bytes: Bytes,
) -> Result<Json<Value>, ApiError> {
    let h = s.handle(&id).await?;
    let req: JoinRequest = body(&bytes)?;
    spend_creation(&s, client)?;
    let mut room = h.room.lock().await;
    let seat = parse_seat(&req.seat, room.seats.len())?;
    let version = room.version();
    if !room.seats[seat.index()].open {
        return Err(ApiError::Conflict { message: format!("seat {seat} is not open"), version });
    }
    let name = seat_name(req.name.as_deref(), seat.index(), None)?;
    let token = token::new_token().map_err(|e| ApiError::Unavailable(format!("no randomness: {e}")))?;
    let hash = token::hash(&token);
    if !s.store.claim(&room.id, seat.index(), &name, &hash).await? {
        return Err(ApiError::Conflict { message: format!("seat {seat} was taken first"), version });
    }
    let st = &mut room.seats[seat.index()];
    st.open = false;
    st.name = name;
    st.token_hash = Some(hash);
    s.store.notify(&room.id).await;
    tell(&h, &room, "seats");
    Ok(Json(json!({ "seat": seat.to_string(), "token": token, "invite": format!("/play/{}#token={token}", room.id) })))
}

/// Tell the subscribers of a change that added no action.
fn tell(h: &Handle, room: &Room, cause: &'static str) {
    let _ = h.updates.send(Update::new(cause, room.version(), Vec::new(), Vec::new()));
}

async fn record(State(s): State<Arc<AppState>>, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let h = s.handle(&id).await?;
    let room = h.room.lock().await;
    Ok(Json(room.record()))
}

#[derive(Debug, Deserialize)]
struct EventsQuery {
    #[serde(default)]
    since: usize,
}

async fn events(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<EventsQuery>,
) -> Result<Json<Value>, ApiError> {
    let h = s.handle(&id).await?;
    let room = h.room.lock().await;
    Ok(Json(json!({ "version": room.version(), "events": room.events_since(q.since) })))
}

/// The game's tile kinds, for drawing them (the same for every seat: the catalogue is public).
async fn tiles(State(s): State<Arc<AppState>>, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let h = s.handle(&id).await?;
    let room = h.room.lock().await;
    Ok(Json(json!({ "tiles": carcassonne::report::tiles_json(room.game().catalogue()) })))
}

async fn rules() -> Json<Value> {
    Json(json!({ "options": carcassonne::report::rule_options_json(), "colours": crate::room::COLOURS }))
}

#[derive(Debug, Deserialize)]
struct AtQuery {
    at: usize,
}

/// The table after the first `at` actions, as a spectator sees it: for the replay viewer. The replay runs outside
/// the game's lock, one at a time on the whole server, and its answer is kept for the next readers of that position.
async fn view_at(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<AtQuery>,
) -> Result<Response, ApiError> {
    let h = s.handle(&id).await?;
    let answer = |body: Bytes| ([(header::CONTENT_TYPE, "application/json")], body).into_response();
    if let Some(body) = h.past_view(q.at) {
        return Ok(answer(body));
    }
    let _replaying = s.replays.acquire().await.map_err(|_| ApiError::Unavailable("shutting down".into()))?;
    // Another reader may have worked it out while this one waited.
    if let Some(body) = h.past_view(q.at) {
        return Ok(answer(body));
    }
    // What is needed is copied under the game's lock; the replay runs outside it, so readers never hold players up.
    let (setup, seats, actions, created_at, generation) = {
        let room = h.room.lock().await;
        if q.at > room.version() {
            return Err(ApiError::BadRequest(format!("at {}: the game has {} actions", q.at, room.version())));
        }
        let actions: Vec<String> = room.actions().take(q.at).map(String::from).collect();
        (room.setup.clone(), room.seats.clone(), actions, room.created_at, h.generation())
    };
    let id = h.id.clone();
    let body = tokio::task::spawn_blocking(move || {
        Room::restore(id, created_at, setup, seats, &actions, q.at)
            .map(|past| serde_json::to_string(&past.view(None)).unwrap_or_default())
    })
    .await
    .map_err(|e| ApiError::Internal(format!("a replay failed: {e}")))?
    .map_err(ApiError::Unavailable)?;
    let body = Bytes::from(body);
    h.keep_past_view(q.at, generation, body.clone());
    Ok(answer(body))
}

#[derive(Debug, Deserialize)]
struct HintQuery {
    #[serde(default)]
    bot: Option<String>,
}

/// Clears a game's "hint in progress" flag however the request ends (answered, failed, or dropped by its client).
struct Hinting<'a>(&'a std::sync::atomic::AtomicBool);

impl Drop for Hinting<'_> {
    fn drop(&mut self) {
        self.0.store(false, std::sync::atomic::Ordering::Release);
    }
}

/// What a bot would play for this seat now (default `medium`; `greedy` or a level, without settings), with the
/// candidates it weighed. A seat may ask a few times a minute (`--hints-per-minute`), one hint per game at a time.
async fn hint(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<HintQuery>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let h = s.handle(&id).await?;
    let spec = crate::limits::hint_spec(q.bot.as_deref().unwrap_or("medium")).map_err(ApiError::BadRequest)?;
    let (game, seat) = {
        let room = h.room.lock().await;
        let seat = required_seat(&room, &headers)?;
        if room.to_decide() != Some(seat) {
            return Err(ApiError::Forbidden("a hint is for the seat whose decision it is".into()));
        }
        (room.game().clone(), seat)
    };
    if h.hinting.swap(true, std::sync::atomic::Ordering::AcqRel) {
        return Err(ApiError::Busy("a hint for this game is already being worked out".into()));
    }
    let _hinting = Hinting(&h.hinting);
    if s.hint_rate.check_key(&(h.id.clone(), seat.0)).is_err() {
        return Err(ApiError::Busy(format!(
            "a seat may ask for {} hints a minute: try again in a moment",
            s.limits.hints_per_minute
        )));
    }
    let thought = s.bots.hint(spec.build(crate::random_u64()), game.clone(), seat).await?;
    let candidates: Vec<Value> = thought
        .candidates
        .iter()
        .take(5)
        .map(|c| json!({ "action": game.action_text(c.action), "visits": c.visits, "value": c.value }))
        .collect();
    // After a placement the same seat decides its figure: the hint says that too, so that it reads as a whole turn
    // ("place … and put a knight on the city"). The bot thinks again on the position after its placement.
    let mut after = game.clone();
    let next_move = match thought.action {
        carcassonne::Action::Place { .. } if after.apply(thought.action).is_ok() => {
            let same_seat = after.decision().actor == carcassonne::Actor::Player(seat);
            if same_seat && !after.is_over() {
                let next = s.bots.hint(spec.build(crate::random_u64()), after.clone(), seat).await?;
                json!({
                    "action": after.action_text(next.action),
                    "fields": carcassonne::report::action_view(&after, next.action),
                    "decision": carcassonne::report::pending_json(&after)["kind"],
                })
            } else {
                Value::Null
            }
        }
        _ => Value::Null,
    };
    Ok(Json(json!({
        "bot": spec.to_string(),
        "action": game.action_text(thought.action),
        "fields": carcassonne::report::action_view(&game, thought.action),
        "next": next_move,
        "candidates": candidates,
        "iterations": thought.iterations,
        "seconds": thought.elapsed.as_secs_f64(),
    })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ChatRequest {
    text: String,
}

/// A seat writes in the game's chat (decision W-13): the message is checked, counted against the seat's
/// `--chat-per-minute`, stored beside the game's log, and sent to every socket of the game.
async fn say(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let h = s.handle(&id).await?;
    let room = h.room.lock().await;
    let seat = seat_of(&room, &headers)?.ok_or(ApiError::Unauthorized(
        "only a seat writes in a game's chat (send its token: `Authorization: Bearer <token>`); spectators read it",
    ))?;
    let req: ChatRequest = body(&bytes)?;
    let text = crate::chat::check(&req.text)?;
    if s.chat_rate.check_key(&(h.id.clone(), seat.0)).is_err() {
        return Err(ApiError::Busy(format!(
            "a seat may write {} chat messages a minute: try again in a moment",
            s.limits.chat_per_minute
        )));
    }
    let name = &room.seats[seat.index()].name;
    let line = s
        .store
        .add_chat(&room.id, seat.index(), name, text, room.version(), crate::chat::MAX_PER_GAME)
        .await?
        .ok_or_else(|| ApiError::Conflict {
        message: format!("this game's chat is full: it keeps {} messages", crate::chat::MAX_PER_GAME),
        version: room.version(),
    })?;
    s.store.notify(&room.id).await;
    let _ = h.updates.send(Update::chat(room.version(), line.clone()));
    Ok((StatusCode::CREATED, Json(json!({ "message": line }))).into_response())
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ChatQuery {
    #[serde(default)]
    since: i64,
}

/// The game's chat, for everyone: its messages after the first `since`.
async fn chat(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<ChatQuery>,
) -> Result<Json<Value>, ApiError> {
    let h = s.handle(&id).await?;
    let messages = s.store.chat(&h.id, q.since).await?;
    Ok(Json(json!({ "messages": messages })))
}
