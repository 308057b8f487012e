//! The browser client and the tile pictures it lays out.
//!
//! - `GET /api/tiles/SET/LETTER.svg?rotation=R`: one tile drawn by
//!   `bastide-render`, the same drawing as `bastide render --tile`, so the
//!   web and the CLI share one catalog-driven art.
//! - `GET /api/tiles/SET/LETTER.json?rotation=R`: that picture's layout
//!   (size, where its first cell lies, the follower spot of every place).
//! - Every other path outside `/api/` is the client (`web/dist`, embedded at
//!   build time): a file by its path, else `index.html`, whose script routes
//!   by the address (`/play/ID`, `/replay/ID`, …).

use axum::extract::{Path, Query};
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use bastide_engine::Catalog;
use bastide_engine::Rotation;
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;

use crate::hub::Hub;
use crate::store::GameId;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/web_assets.rs"));
}

/// Shown at `/` when the server was built without the client.
const NO_CLIENT: &str = "<!doctype html><html lang=\"en\"><meta charset=utf-8><title>Bastide</title>\
<p>This server was built without its browser client. Run <code>npm ci &amp;&amp; npm run build</code> \
in <code>web/</code>, then build the server again. The API is under <code>/api</code> (docs/server.md).</p>\
<main id=\"app\" tabindex=\"-1\"></main>";

/// The routes of this module, to merge into the server's router.
pub fn router() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/games/{id}/feature", get(feature))
        .route("/api/games/{id}/tiles", get(game_tiles))
        .route("/api/tiles/batch", get(batch))
        .route("/api/tiles/{set}/{file}", get(tile))
        .route("/api/maps/{name}", get(map))
        .route("/api/replay", axum::routing::post(replay))
        .fallback(client)
}

#[derive(Deserialize)]
struct TileQuery {
    rotation: Option<i64>,
}

fn not_found(message: String) -> Response {
    (
        StatusCode::NOT_FOUND,
        Json(json!({"error": {"code": "not_found", "message": message}})),
    )
        .into_response()
}

async fn tile(Path((set, file)): Path<(String, String)>, Query(q): Query<TileQuery>) -> Response {
    let Some(rotation) = Rotation::from_degrees(q.rotation.unwrap_or(0)) else {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({"error": {"code": "bad_request", "message": "rotation is 0, 90, 180 or 270"}})),
        )
            .into_response();
    };
    let (letter, svg) = match (file.strip_suffix(".svg"), file.strip_suffix(".json")) {
        (Some(l), _) => (l, true),
        (None, Some(l)) => (l, false),
        _ => {
            return not_found(format!(
                "tile pictures end in .svg or .json, not {}",
                cut(&file)
            ))
        }
    };
    let id = format!("{set}/{letter}");
    let catalog = Catalog::builtin();
    // The catalog never changes while a server runs: a day of caching
    // spares the client a request per tile kind and rotation.
    let cache = (header::CACHE_CONTROL, "public, max-age=86400");
    if svg {
        match bastide_render::tile_svg_bare(&catalog, &id, rotation) {
            Ok(text) => ([(header::CONTENT_TYPE, "image/svg+xml"), cache], text).into_response(),
            Err(e) => not_found(cut(&e.to_string())),
        }
    } else {
        match bastide_render::tile_layout(&catalog, &id, rotation) {
            Ok(l) => ([cache], Json(layout_json(&id, rotation, &l))).into_response(),
            Err(e) => not_found(cut(&e.to_string())),
        }
    }
}

/// The game `id` in memory (loaded if need be), or the 404 answer.
async fn live_game(hub: &Hub, id: &str) -> Result<Arc<crate::hub::GameHandle>, Response> {
    let Some(id) = GameId::parse(id) else {
        return Err(not_found("no such game".into()));
    };
    hub.get(&id).await.map_err(|e| not_found(e.message))
}

#[derive(Deserialize)]
struct FeatureQuery {
    x: i32,
    y: i32,
    place: String,
    half: Option<String>,
}

/// `GET /api/games/ID/feature?x=X&y=Y&place=P[&half=C]`: the feature at a
/// place of a placed tile, as it stands now: its kind, whether it is
/// complete, what it is worth now (the engine's own count), the cells it
/// covers and the followers on it per seat. Everything here is public.
async fn feature(
    axum::extract::State(hub): axum::extract::State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(q): Query<FeatureQuery>,
) -> Response {
    let handle = match live_game(&hub, &id).await {
        Ok(h) => h,
        Err(e) => return e,
    };
    let place: Option<bastide_engine::Place> = q.place.parse().ok();
    let corner: Result<Option<bastide_engine::Corner>, _> =
        q.half.as_deref().map(str::parse).transpose();
    let (Some(place), Ok(corner)) = (place, corner) else {
        return not_found(format!(
            "no place {} (half {})",
            cut(&q.place),
            cut(q.half.as_deref().unwrap_or("-"))
        ));
    };
    let pos = bastide_engine::Pos::new(q.x, q.y);
    let info = hub
        .inspect(&handle, |game| {
            let board = game.board();
            let feature = game.feature(game.feature_at(pos, corner, place)?);
            let (points, tiles, extra) = feature.value();
            let mut cells: Vec<[i32; 2]> = Vec::new();
            for pi in feature.pieces() {
                let piece = board.pieces()[pi as usize];
                let def = game.catalog().tile(piece.tile);
                for &(dx, dy) in &def.oriented(piece.rot).cells {
                    cells.push([piece.pos.x + dx, piece.pos.y + dy]);
                }
            }
            cells.sort_unstable();
            cells.dedup();
            let mut followers = vec![0u32; game.player_count()];
            for f in feature.followers() {
                if let Some(c) = followers.get_mut(f.player.index()) {
                    *c += 1;
                }
            }
            Some(
                json!({"kind": feature.kind().name(), "complete": feature.is_complete(),
                        "points": points, "tiles": tiles, "extra": extra, "cells": cells,
                        "followers": followers}),
            )
        })
        .await;
    match info {
        Some(v) => Json(v).into_response(),
        None => not_found(format!("no feature at {} of ({}, {})", place, q.x, q.y)),
    }
}

/// `GET /api/maps/NAME.json`: a map's squares, start spaces and Chumak
/// squares, for drawing it under the tiles.
async fn map(Path(name): Path<String>) -> Response {
    let Some(def) = name
        .strip_suffix(".json")
        .and_then(bastide_engine::MapDef::builtin)
    else {
        return not_found(format!("no map {}", cut(&name)));
    };
    let cells: Vec<_> = def.bounds.cells().map(|p| [p.x, p.y]).collect();
    let starts: Vec<_> = def.starts.iter().map(|p| [p.x, p.y]).collect();
    // The land's border, in tenths of a square (docs/maps.md).
    let outline: Vec<_> = def.outline.iter().map(|&(x, y)| [x, y]).collect();
    let chumak: Vec<_> = def
        .chumak
        .iter()
        .map(|(p, town)| json!({"x": p.x, "y": p.y, "name": town}))
        .collect();
    (
        [(header::CACHE_CONTROL, "public, max-age=86400")],
        Json(json!({"name": def.name, "title": def.title, "cells": cells, "starts": starts, "chumak": chumak, "outline": outline})),
    )
        .into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReplayBody {
    record: bastide_engine::record::Record,
    at: usize,
}

/// `POST /api/replay` `{"record": R, "at": N}`: the public view after the
/// record's first `N` actions (the replay viewer steps with it). The
/// record must be complete (a finished game's, or a file); the engine
/// checks every action.
async fn replay(body: axum::body::Bytes) -> Response {
    let bad = |m: String| {
        (
            StatusCode::BAD_REQUEST,
            Json(json!({"error": {"code": "bad_request", "message": m}})),
        )
            .into_response()
    };
    let req: ReplayBody = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return bad(bastide_engine::limits::cut_message(&format!("body: {e}"))),
    };
    let n = req.at.min(req.record.actions.len());
    // Replaying is CPU work (a few ms for a whole game): off the async threads.
    let done = tokio::task::spawn_blocking(move || {
        req.record.replay_to(n).map(|game| {
            let action = n
                .checked_sub(1)
                .and_then(|i| req.record.actions.get(i))
                .and_then(|a| serde_json::to_value(a).ok());
            json!({"at": n, "actions": req.record.actions.len(), "action": action,
                   "view": crate::hub::public_view(&game)})
        })
    })
    .await;
    match done {
        Ok(Ok(v)) => Json(v).into_response(),
        // The whole message, not `cut`'s quoted head: the engine's error
        // names the action and the rule it breaks, and that is what a
        // person replaying needs to read (it quotes the action cut already).
        Ok(Err(e)) => bad(bastide_engine::limits::cut_message(&e.to_string())),
        Err(e) => bad(format!("replay failed: {e}")),
    }
}

/// The most tile pictures one batch may ask for (every tile kind of every
/// set in four rotations is well under this).
const MAX_BATCH: usize = 2000;

#[derive(Deserialize)]
struct BatchQuery {
    tiles: String,
}

/// The JSON layout of a tile picture.
fn layout_json(id: &str, rotation: Rotation, l: &bastide_render::TileLayout) -> serde_json::Value {
    let spots: Vec<_> = l
        .spots
        .iter()
        .map(|s| {
            json!({"cell": [s.cell.0, s.cell.1], "place": s.place, "feature": s.feature,
                   "kind": s.kind, "x": s.x, "y": s.y, "lying": s.lying})
        })
        .collect();
    let cells: Vec<_> = l.cells.iter().map(|c| [c.0, c.1]).collect();
    json!({"id": id, "rotation": rotation.degrees(), "width": l.width, "height": l.height,
           "origin": [l.origin.0, l.origin.1], "cell": l.cell, "cells": cells, "spots": spots})
}

/// Splits a tile picture into its head (style and definitions, the same for
/// every tile) and its body (the drawing).
fn split_svg(svg: &str) -> Option<(&str, &str)> {
    let head_start = svg.find("<style>")?;
    let defs_end = svg.find("</defs>")? + "</defs>".len();
    let body_end = svg.rfind("</svg>")?;
    Some((&svg[head_start..defs_end], svg[defs_end..body_end].trim()))
}

/// One tile kind in one rotation, drawn: its batch entry (`{"key",
/// "layout", "body"}` as JSON text), its drawing (the picture without its
/// shared head) and its layout.
struct Drawn {
    entry: Arc<str>,
    body: String,
    layout: bastide_render::TileLayout,
    layout_json: String,
}

/// A tile drawn ([`Drawn`]) and the shared head of every picture (style
/// and definitions, as the markup), drawn once per server: the drawing is
/// deterministic and the catalog fixed, and drawing a hundred tiles on
/// every page load would dominate the first paint. [`prerender`] fills the
/// cache when the server starts.
fn drawn(
    catalog: &Catalog,
    key: &str,
    id: &str,
    rotation: Rotation,
) -> Result<(Arc<str>, Arc<Drawn>), String> {
    type Cache = std::sync::RwLock<std::collections::HashMap<String, Arc<Drawn>>>;
    static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
    static HEAD: std::sync::OnceLock<Arc<str>> = std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let hit = cache.read().ok().and_then(|c| c.get(key).cloned());
    if let (Some(entry), Some(head)) = (hit, HEAD.get()) {
        return Ok((head.clone(), entry));
    }
    let svg =
        bastide_render::tile_svg_bare(catalog, id, rotation).map_err(|e| cut(&e.to_string()))?;
    let layout =
        bastide_render::tile_layout(catalog, id, rotation).map_err(|e| cut(&e.to_string()))?;
    let (head, body) =
        split_svg(&svg).ok_or_else(|| format!("cannot split the picture of {}", cut(key)))?;
    let head = HEAD.get_or_init(|| Arc::from(head)).clone();
    let layout_value = layout_json(id, rotation, &layout);
    let entry: Arc<str> =
        Arc::from(json!({"key": key, "layout": layout_value, "body": body}).to_string());
    let tile = Arc::new(Drawn {
        entry,
        body: body.to_string(),
        layout_json: layout_value.to_string(),
        layout,
    });
    if let Ok(mut c) = cache.write() {
        c.insert(key.to_string(), tile.clone());
    }
    Ok((head, tile))
}

/// `ID@ROTATION` parsed and drawn: the shared head and the tile.
fn drawn_key(catalog: &Catalog, key: &str) -> Result<(Arc<str>, Arc<Drawn>), String> {
    let (id, degrees) = key
        .split_once('@')
        .ok_or_else(|| format!("{} is not ID@ROTATION", cut(key)))?;
    let rotation = degrees
        .parse()
        .ok()
        .and_then(Rotation::from_degrees)
        .ok_or_else(|| format!("{}: rotation is 0, 90, 180 or 270", cut(key)))?;
    drawn(catalog, key, id, rotation)
}

/// Draws every tile kind of the catalog in its four rotations into the
/// cache of batch answers (about 530 pictures, well under a second in a
/// release build): `bastide serve` runs it on a thread of its own at
/// start-up, so that the first visitor of a board does not wait for its
/// tiles to be drawn.
pub fn prerender() {
    let catalog = Catalog::builtin();
    for def in catalog.tiles() {
        for rotation in Rotation::ALL {
            let key = format!("{}@{}", def.id, rotation.degrees());
            if let Err(e) = drawn(&catalog, &key, &def.id, rotation) {
                tracing::warn!("drawing {key}: {e}");
            }
        }
    }
}

/// `GET /api/tiles/batch?tiles=base/D@0,base/U@90`: many tiles at once,
/// each with its layout and its drawing, plus the style and definitions
/// they share — one request for a whole board instead of one per tile
/// kind and rotation (docs/performance.md).
async fn batch(Query(q): Query<BatchQuery>) -> Response {
    let keys: Vec<String> = q
        .tiles
        .split(',')
        .filter(|k| !k.is_empty())
        .take(MAX_BATCH)
        .map(str::to_string)
        .collect();
    batch_response(keys, "public, max-age=86400").await
}

/// `GET /api/games/ID/tiles`: the batch (as `/api/tiles/batch` answers it)
/// of every tile kind and rotation on the game's board now, each once. A
/// game page asks for it from `index.html`'s inline script, while the
/// client's script loads and before the `welcome` says which tiles the
/// board holds.
async fn game_tiles(
    axum::extract::State(hub): axum::extract::State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Response {
    let handle = match live_game(&hub, &id).await {
        Ok(h) => h,
        Err(e) => return e,
    };
    let keys = hub
        .inspect(&handle, |game| {
            let catalog = game.catalog();
            let mut seen = std::collections::HashSet::new();
            game.board()
                .pieces()
                .iter()
                .map(|p| format!("{}@{}", catalog.tile(p.tile).id, p.rot.degrees()))
                .filter(|k| seen.insert(k.clone()))
                .collect::<Vec<_>>()
        })
        .await;
    // The board grows: never cached.
    batch_response(keys, "no-cache").await
}

async fn batch_response(keys: Vec<String>, cache: &'static str) -> Response {
    // Drawing is CPU work (a tile not drawn yet): off the async threads.
    match tokio::task::spawn_blocking(move || batch_text(&keys)).await {
        Ok(Ok(text)) => (
            [
                (header::CONTENT_TYPE, "application/json"),
                (header::CACHE_CONTROL, cache),
            ],
            text,
        )
            .into_response(),
        Ok(Err(e)) => not_found(e),
        Err(e) => not_found(format!("drawing failed: {e}")),
    }
}

/// The batch answer `{"head": …, "tiles": […]}` for `ID@ROTATION` keys,
/// put together from the cached JSON text of each tile.
fn batch_text(keys: &[String]) -> Result<String, String> {
    let catalog = Catalog::builtin();
    let mut head: Option<Arc<str>> = None;
    let mut tiles = Vec::with_capacity(keys.len());
    for key in keys {
        let (h, tile) = drawn_key(&catalog, key)?;
        head.get_or_insert(h);
        tiles.push(tile);
    }
    let head = head.map_or_else(|| "\"\"".to_string(), |h| json_string(&h));
    let mut out = String::with_capacity(
        head.len() + tiles.iter().map(|t| t.entry.len() + 1).sum::<usize>() + 24,
    );
    out.push_str("{\"head\":");
    out.push_str(&head);
    out.push_str(",\"tiles\":[");
    for (i, t) in tiles.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&t.entry);
    }
    out.push_str("]}");
    Ok(out)
}

/// `text` as a JSON string.
fn json_string(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

fn cut(s: &str) -> String {
    bastide_engine::limits::cut(s)
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "ico" => "image/x-icon",
        _ => "application/octet-stream",
    }
}

/// Where a game's page puts the table: `index.html`'s (and
/// [`NO_CLIENT`]'s) empty application element.
const APP: &str = "<main id=\"app\" tabindex=\"-1\"></main>";

async fn client(axum::extract::State(hub): axum::extract::State<Arc<Hub>>, uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("api/") {
        return not_found(format!("no such API route: /{}", cut(path)));
    }
    if let Some((_, bytes)) = embedded::FILES.iter().find(|(name, _)| *name == path) {
        // Vite names built assets by content hash: they never change.
        let cache = if path.starts_with("assets/") {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        return (
            [
                (header::CONTENT_TYPE, content_type(path)),
                (header::CACHE_CONTROL, cache),
            ],
            *bytes,
        )
            .into_response();
    }
    let index = embedded::FILES
        .iter()
        .find(|(name, _)| *name == "index.html")
        .and_then(|(_, b)| std::str::from_utf8(b).ok())
        .unwrap_or(NO_CLIENT);
    // An address the client has no page for, or a game that does not
    // exist, is a 404 — still with the client, which says so and links
    // to the lobby (`web/src/main.ts`).
    let (status, page) = match client_page(path) {
        ClientPage::Fixed => (StatusCode::OK, None),
        ClientPage::Unknown => (StatusCode::NOT_FOUND, None),
        ClientPage::Table(id) => match page_game(&hub, id).await {
            Ok(Some(handle)) => (StatusCode::OK, table_page(&hub, index, &handle).await),
            found => (found_status(&found), None),
        },
        ClientPage::Replay(id) => (found_status(&page_game(&hub, id).await), None),
        ClientPage::Player(name) => (found_status(&hub.store().account_by_name(name).await), None),
    };
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            // A game's page shows the game as it is now.
            (header::CACHE_CONTROL, "no-cache"),
        ],
        page.unwrap_or_else(|| index.to_string()),
    )
        .into_response()
}

/// What the client shows at an address outside `/api/` that is not one of
/// its files (`web/src/main.ts` routes the same way).
#[derive(Debug, PartialEq, Eq)]
enum ClientPage<'a> {
    /// The lobby (`/`), the replay viewer for a file (`/replay`) or the
    /// leaderboard (`/players`).
    Fixed,
    /// A game's table: `play/ID` or `watch/ID`.
    Table(&'a str),
    /// A game's replay: `replay/ID`.
    Replay(&'a str),
    /// A player's page: `players/NAME` (a 404 for no such account).
    Player(&'a str),
    /// Anything else: the client's "no such page".
    Unknown,
}

fn client_page(path: &str) -> ClientPage<'_> {
    let path = path.trim_end_matches('/');
    if path.is_empty() || path == "replay" || path == "players" {
        return ClientPage::Fixed;
    }
    match path.split_once('/') {
        Some(("play" | "watch", id)) if game_address(id) => ClientPage::Table(id),
        Some(("replay", id)) if game_address(id) => ClientPage::Replay(id),
        Some(("players", name)) if crate::players::check_name(name).is_ok() => {
            ClientPage::Player(name)
        }
        _ => ClientPage::Unknown,
    }
}

/// Whether `id` is written as the client's addresses write a game's id.
fn game_address(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A game page's status: 404 for no such game; 200 for a game, and when
/// the store cannot say now (the plain page, whose client reports it).
fn found_status<T, E>(found: &Result<Option<T>, E>) -> StatusCode {
    if matches!(found, Ok(None)) {
        StatusCode::NOT_FOUND
    } else {
        StatusCode::OK
    }
}

/// A page's game: `Ok(None)` when there is no such game (the page is a
/// 404), `Err` when the store cannot say now.
async fn page_game(
    hub: &Hub,
    id: &str,
) -> Result<Option<Arc<crate::hub::GameHandle>>, crate::protocol::ProtocolError> {
    let Some(id) = GameId::parse(id) else {
        return Ok(None);
    };
    match hub.get(&id).await {
        Ok(handle) => Ok(Some(handle)),
        Err(e) if e.code == crate::protocol::ErrorCode::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// A game's page with its board in it: `index` with the tiles on the board
/// drawn as SVG (`<symbol>`s of the same drawing as `/api/tiles`, one
/// `<use>` per piece) and the public state a spectator's `welcome` carries,
/// so that the board paints with the page, before any script, WebSocket or
/// tile request; the client takes over from there (`web/src/table.ts`).
/// Only the public view: a seat's hand comes through its own WebSocket.
/// `None` (the plain page) for a page without the application element.
async fn table_page(
    hub: &Hub,
    index: &str,
    handle: &Arc<crate::hub::GameHandle>,
) -> Option<String> {
    if !index.contains(APP) {
        return None;
    }
    let id = handle.id().as_str();
    let (welcome, pieces) = hub
        .spectator_welcome(handle, |game| {
            let catalog = game.catalog();
            game.board()
                .pieces()
                .iter()
                .map(|p| Piece {
                    key: format!("{}@{}", catalog.tile(p.tile).id, p.rot.degrees()),
                    tile: catalog.tile(p.tile).id.clone(),
                    x: p.pos.x,
                    y: p.pos.y,
                })
                .collect::<Vec<_>>()
        })
        .await;
    let welcome = json!({ "welcome": welcome }).to_string();
    let index = index.to_string();
    let id = id.to_string();
    // Drawing a tile not drawn yet is CPU work: off the async threads.
    tokio::task::spawn_blocking(move || {
        let board = board_markup(&id, &pieces, &welcome).ok()?;
        Some(
            index
                .replacen(
                    "<html lang=\"en\">",
                    "<html lang=\"en\" data-board=\"\">",
                    1,
                )
                .replacen(APP, &board, 1),
        )
    })
    .await
    .ok()
    .flatten()
}

/// A piece on the board, for [`board_markup`].
struct Piece {
    key: String,
    tile: String,
    x: i32,
    y: i32,
}

/// The size of a cell in the tile pictures' units (`web/src/geometry.ts`'s
/// `CELL`).
const CELL: f64 = 100.0;

/// The table's markup as `web/src/table.ts` builds it (the board's
/// viewport, its SVG and its layers, an empty side panel), with the tiles
/// in: every tile kind and rotation once as a `<symbol>` (`tile-0`, `tile-1`,
/// … in the order of first appearance, as the client numbers them), one
/// `<use>` per piece in board order; then the state as JSON (the welcome
/// `{"welcome": …}`, and each symbol's key, id and layout). Until the
/// client takes over, the SVG's `viewBox` is the box `fit` shows
/// (`web/src/geometry.ts`) and CSS stretches it over the viewport.
fn board_markup(game: &str, pieces: &[Piece], welcome: &str) -> Result<String, String> {
    use std::fmt::Write as _;
    let catalog = Catalog::builtin();
    let mut head: Option<Arc<str>> = None;
    let mut symbols: Vec<(&str, Arc<Drawn>)> = Vec::new();
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut uses = String::new();
    let (mut min_x, mut min_y, mut max_x, mut max_y) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for p in pieces {
        let n = match index.get(p.key.as_str()) {
            Some(&n) => n,
            None => {
                let (h, tile) = drawn_key(&catalog, &p.key)?;
                head.get_or_insert(h);
                symbols.push((&p.key, tile));
                index.insert(&p.key, symbols.len() - 1);
                symbols.len() - 1
            }
        };
        let l = &symbols[n].1.layout;
        for &(dx, dy) in &l.cells {
            min_x = min_x.min(p.x + dx);
            min_y = min_y.min(p.y + dy);
            max_x = max_x.max(p.x + dx);
            max_y = max_y.max(p.y + dy);
        }
        let _ = write!(
            uses,
            "<use href=\"#tile-{n}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"tile\" data-tile=\"{}\" data-cell=\"{},{}\"/>",
            f64::from(p.x) * CELL - l.origin.0,
            f64::from(p.y) * CELL - l.origin.1,
            l.width,
            l.height,
            attr(&p.tile),
            p.x,
            p.y
        );
    }
    let mut out = String::with_capacity(
        uses.len()
            + welcome.len()
            + symbols
                .iter()
                .map(|(_, t)| t.body.len() + t.layout_json.len() + 80)
                .sum::<usize>()
            + 4096,
    );
    out.push_str("<main id=\"app\" tabindex=\"-1\"><div class=\"layout\"><div class=\"boardwrap\"><div class=\"board-view\">");
    // The box `fit` shows: a cell's margin before the board, two after;
    // for a small board at least 8 by 7 cells (`fit` enlarges at most 1.2
    // times, about that many cells in a table's viewport).
    let view_box = if pieces.is_empty() {
        "-300 -300 700 700".to_string()
    } else {
        let (w, h) = (max_x - min_x + 3, max_y - min_y + 3);
        let (pw, ph) = ((8 - w).max(0), (7 - h).max(0));
        format!(
            "{} {} {} {}",
            (f64::from(min_x - 1) - f64::from(pw) / 2.0) * CELL,
            (f64::from(min_y - 1) - f64::from(ph) / 2.0) * CELL,
            f64::from(w + pw) * CELL,
            f64::from(h + ph) * CELL
        )
    };
    let _ = write!(
        out,
        "<svg class=\"board prefit\" data-game=\"{}\" role=\"application\" aria-label=\"Game board. Arrow keys pan, plus and minus zoom, Tab reaches the marked places.\" viewBox=\"{view_box}\"><defs>",
        attr(game)
    );
    out.push_str(head.as_deref().unwrap_or(""));
    for (n, (_, t)) in symbols.iter().enumerate() {
        let _ = write!(
            out,
            "<symbol id=\"tile-{n}\" viewBox=\"0 0 {} {}\">{}</symbol>",
            t.layout.width, t.layout.height, t.body
        );
    }
    out.push_str("</defs><g><g class=\"layer-map\"></g><g class=\"layer-gaps\"></g><g class=\"layer-tiles\">");
    out.push_str(&uses);
    out.push_str("</g><g class=\"layer-highlights\"></g><g class=\"layer-followers\"></g><g class=\"layer-tokens\"></g><g class=\"layer-targets\"></g></g></svg></div></div>");
    // Words, not the game's id: the page names the game once the client has its players and sets.
    out.push_str("<aside class=\"side\" aria-label=\"Game panel\"><p role=\"status\">Connecting to the game…</p></aside></div>");
    out.push_str("<script type=\"application/json\" id=\"bastide-welcome\">");
    out.push_str(&script_json(welcome));
    out.push_str("</script><script type=\"application/json\" id=\"bastide-tiles\">[");
    for (n, (key, t)) in symbols.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            "{{\"key\":{},\"symbol\":\"tile-{n}\",\"layout\":{}}}",
            script_json(&json_string(key)),
            script_json(&t.layout_json)
        );
    }
    out.push_str("]</script></main>");
    Ok(out)
}

/// JSON text made safe inside an HTML `<script>` element: `<`, `>` and `&`
/// (which JSON has only inside strings) as `\u` escapes, so that no
/// `</script>` or `<!--` in a player's name can end the element or start a
/// comment; the JSON it parses to is the same.
fn script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// Text made safe inside a double-quoted HTML attribute or element text.
fn attr(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tile_has_a_layout_whose_spots_lie_in_its_picture() {
        let catalog = Catalog::builtin();
        for id in ["base/D", "halfsies1/A", "river20/A"] {
            for r in Rotation::ALL {
                let l = bastide_render::tile_layout(&catalog, id, r).expect(id);
                assert!(!l.spots.is_empty(), "{id}");
                let svg = bastide_render::tile_svg_bare(&catalog, id, r).expect(id);
                assert!(
                    svg.starts_with("<svg") && !svg.contains("class=\"table\""),
                    "{id}"
                );
                for s in &l.spots {
                    assert!(
                        s.x > 0.0 && s.x < l.width && s.y > 0.0 && s.y < l.height,
                        "{id} {s:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_batch_splits_pictures_into_one_shared_head_and_bodies() {
        let svg =
            bastide_render::tile_svg_bare(&Catalog::builtin(), "base/D", Rotation::ALL[1]).unwrap();
        let (head, body) = split_svg(&svg).expect("a tile picture has style, defs and a body");
        assert!(head.starts_with("<style>") && head.ends_with("</defs>"));
        assert!(body.contains("data-tile=\"base/D\"") && !body.contains("</svg>"));
    }

    #[test]
    fn a_batch_is_one_head_and_the_cached_entries() {
        let keys = vec!["base/D@90".to_string(), "inns-cathedrals/A@0".to_string()];
        let text = batch_text(&keys).expect("a batch");
        let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert!(v["head"].as_str().is_some_and(|h| h.starts_with("<style>")));
        let tiles = v["tiles"].as_array().expect("tiles");
        assert_eq!(tiles.len(), 2);
        assert_eq!(tiles[0]["key"], "base/D@90");
        assert_eq!(tiles[0]["layout"]["rotation"], 90);
        assert!(tiles[1]["body"]
            .as_str()
            .is_some_and(|b| b.contains("inns-cathedrals/A")));
        // Drawn once: the second answer is the same text.
        assert_eq!(batch_text(&keys).expect("a batch"), text);
        assert!(batch_text(&["base/D@45".to_string()]).is_err());
        assert!(batch_text(&["base/nothing@0".to_string()]).is_err());
        assert_eq!(batch_text(&[]).expect("empty"), r#"{"head":"","tiles":[]}"#);
    }

    #[test]
    fn embedded_json_cannot_end_its_script_element() {
        let names = json!({"players": ["</script><script>x()</script>", "<!--", "a&b\u{2028}"]});
        let text = script_json(&names.to_string());
        for bad in ['<', '>', '&', '\u{2028}', '\u{2029}'] {
            assert!(!text.contains(bad), "{bad:?} in {text}");
        }
        // The same JSON once parsed.
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&text).unwrap(),
            names
        );
        assert_eq!(attr("<a href=\"x\">&"), "&lt;a href=&quot;x&quot;&gt;&amp;");
    }

    #[test]
    fn addresses_the_client_has_no_page_for_are_unknown() {
        assert_eq!(client_page(""), ClientPage::Fixed);
        assert_eq!(client_page("replay/"), ClientPage::Fixed);
        assert_eq!(client_page("replay/00ff"), ClientPage::Replay("00ff"));
        assert_eq!(client_page("watch/00ff/"), ClientPage::Table("00ff"));
        assert_eq!(client_page("players"), ClientPage::Fixed);
        assert_eq!(
            client_page("players/Alice_2"),
            ClientPage::Player("Alice_2")
        );
        for path in [
            "nonsense/path",
            "play",
            "play/doesnotexist123",
            "watch/zzz",
            "replay/zzz",
            "play/00ff/x",
            "lobby",
            "players/x",
            "players/a b c",
            "players/Alice/games",
        ] {
            assert_eq!(client_page(path), ClientPage::Unknown, "{path}");
        }
    }

    /// The game of a table's address.
    fn table_game(path: &str) -> Option<&str> {
        match client_page(path) {
            ClientPage::Table(id) => Some(id),
            _ => None,
        }
    }

    #[test]
    fn only_table_addresses_get_a_board() {
        assert_eq!(table_game("watch/00ff"), Some("00ff"));
        assert_eq!(table_game("play/abc123"), Some("abc123"));
        for path in [
            "",
            "replay/00ff",
            "watch/",
            "watch/xyz",
            "watch/00ff/x",
            "play",
        ] {
            assert_eq!(table_game(path), None, "{path}");
        }
        assert_eq!(table_game(&format!("watch/{}", "a".repeat(65))), None);
    }

    #[test]
    fn the_board_markup_numbers_symbols_by_first_appearance() {
        let piece = |key: &str, x: i32| Piece {
            key: key.to_string(),
            tile: key.split('@').next().unwrap().to_string(),
            x,
            y: 0,
        };
        let pieces = [
            piece("base/D@0", 0),
            piece("base/U@90", 1),
            piece("base/D@0", 2),
        ];
        let html = board_markup("00ff", &pieces, r#"{"welcome":{"players":["<b>"]}}"#).unwrap();
        assert!(html.starts_with(APP.trim_end_matches("</main>")) && html.ends_with("</main>"));
        assert_eq!(html.matches("<symbol id=").count(), 2);
        assert_eq!(html.matches("<use href=\"#tile-0\"").count(), 2);
        assert_eq!(html.matches("<use href=\"#tile-1\"").count(), 1);
        // Three cells in a row: fit's box is a cell before, two after, and
        // at least 8 by 7 cells.
        assert!(html.contains("viewBox=\"-250 -300 800 700\""), "{html}");
        assert!(html.contains("\\u003cb\\u003e") && !html.contains("<b>"));
        assert!(html.contains(r#"[{"key":"base/D@0","symbol":"tile-0","layout":{"#));
    }

    #[test]
    fn content_types_follow_extensions() {
        assert_eq!(
            content_type("assets/index-abc.js"),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(content_type("index.html"), "text/html; charset=utf-8");
    }
}
