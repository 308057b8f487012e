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
const NO_CLIENT: &str = "<!doctype html><meta charset=utf-8><title>Bastide</title>\
<p>This server was built without its browser client. Run <code>npm ci &amp;&amp; npm run build</code> \
in <code>web/</code>, then build the server again. The API is under <code>/api</code> (docs/server.md).</p>";

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
            let node = board.node_at(game.catalog(), pos, corner, place)?;
            let feats = board.features();
            let root = feats.root(node);
            let (points, tiles, extra) = game.feature_value(root);
            let mut cells: Vec<[i32; 2]> = Vec::new();
            for m in feats.members(root) {
                let (pi, _) = feats.origin(m);
                let piece = board.pieces()[pi as usize];
                let def = game.catalog().tile(piece.tile);
                for &(dx, dy) in &def.oriented(piece.rot).cells {
                    cells.push([piece.pos.x + dx, piece.pos.y + dy]);
                }
            }
            cells.sort_unstable();
            cells.dedup();
            let mut followers = vec![0u32; game.player_count()];
            for f in game.followers() {
                let n = board.pieces()[f.piece as usize].node_base + f.feature as u32;
                if feats.root(n) == root {
                    if let Some(c) = followers.get_mut(f.player as usize) {
                        *c += 1;
                    }
                }
            }
            Some(
                json!({"kind": feats.kind(root).name(), "complete": feats.open(root) == 0,
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
    let chumak: Vec<_> = def
        .chumak
        .iter()
        .map(|(p, town)| json!({"x": p.x, "y": p.y, "name": town}))
        .collect();
    (
        [(header::CACHE_CONTROL, "public, max-age=86400")],
        Json(json!({"name": def.name, "title": def.title, "cells": cells, "starts": starts, "chumak": chumak})),
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
        Err(e) => return bad(cut(&format!("body: {e}"))),
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
        Ok(Err(e)) => bad(cut(&e.to_string())),
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

/// A tile's batch entry (`{"key", "layout", "body"}` as JSON text) and
/// the shared head of every picture (as a JSON string), drawn once per
/// server: the drawing is deterministic and the catalog fixed, and
/// drawing a hundred tiles on every page load would dominate the first
/// paint. [`prerender`] fills the cache when the server starts.
fn drawn(
    catalog: &Catalog,
    key: &str,
    id: &str,
    rotation: Rotation,
) -> Result<(Arc<str>, Arc<str>), String> {
    type Cache = std::sync::RwLock<std::collections::HashMap<String, Arc<str>>>;
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
    let head = HEAD
        .get_or_init(|| Arc::from(serde_json::Value::from(head).to_string()))
        .clone();
    let entry: Arc<str> = Arc::from(
        json!({"key": key, "layout": layout_json(id, rotation, &layout), "body": body}).to_string(),
    );
    if let Ok(mut c) = cache.write() {
        c.insert(key.to_string(), entry.clone());
    }
    Ok((head, entry))
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
        let (id, degrees) = key
            .split_once('@')
            .ok_or_else(|| format!("{} is not ID@ROTATION", cut(key)))?;
        let rotation = degrees
            .parse()
            .ok()
            .and_then(Rotation::from_degrees)
            .ok_or_else(|| format!("{}: rotation is 0, 90, 180 or 270", cut(key)))?;
        let (h, entry) = drawn(&catalog, key, id, rotation)?;
        head.get_or_insert(h);
        tiles.push(entry);
    }
    let head = head.unwrap_or_else(|| Arc::from("\"\""));
    let mut out =
        String::with_capacity(head.len() + tiles.iter().map(|t| t.len() + 1).sum::<usize>() + 24);
    out.push_str("{\"head\":");
    out.push_str(&head);
    out.push_str(",\"tiles\":[");
    for (i, t) in tiles.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(t);
    }
    out.push_str("]}");
    Ok(out)
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

async fn client(uri: Uri) -> Response {
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
        .map_or(NO_CLIENT.as_bytes(), |(_, b)| *b);
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        index,
    )
        .into_response()
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
    fn content_types_follow_extensions() {
        assert_eq!(
            content_type("assets/index-abc.js"),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(content_type("index.html"), "text/html; charset=utf-8");
    }
}
