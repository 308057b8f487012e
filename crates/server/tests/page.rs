//! A game's page over a real socket: the board drawn into the HTML and
//! the public state embedded with it, exactly a spectator's welcome (no
//! seat's hand), safely escaped whatever the players are called.

mod common;

use bastide_engine::GameConfig;
use common::{token, Api, Client, TestDb, TestServer};
use serde_json::{json, Value};

/// The status and the HTML of a page.
async fn get_page(server: &TestServer, path: &str) -> (u16, String) {
    let r = server
        .http
        .get(format!("{}{path}", server.base))
        .send()
        .await
        .expect("GET the page");
    (r.status().as_u16(), r.text().await.expect("a page"))
}

async fn page(server: &TestServer, path: &str) -> String {
    let (status, html) = get_page(server, path).await;
    assert_eq!(status, 200, "{path}");
    html
}

/// What tells `index.html`'s first script that the board is in the page.
const BOARD_PAGE: &str = "<html lang=\"en\" data-board";

/// The text of the `<script type="application/json" id=ID>` element.
fn embedded<'a>(html: &'a str, id: &str) -> Option<&'a str> {
    let open = format!("<script type=\"application/json\" id=\"{id}\">");
    let start = html.find(&open)? + open.len();
    let len = html[start..].find("</script>")?;
    Some(&html[start..start + len])
}

async fn game_page_embeds_the_public_board(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    // Names that would break out of a script element, open a comment or
    // an entity if they were written into the page as they are.
    let evil = ["</script><script>alert(1)</script>", "<!--", "A&B\u{2028}"];
    let mut cfg = serde_json::to_value(
        GameConfig::from_sets(3, 5, &["base", "halfsies1", "map-chips"]).expect("a config"),
    )
    .expect("JSON");
    cfg["players"] = json!(evil);
    let created = api.create(&cfg, &["human", "human", "greedy"]).await;
    let id = created["id"].as_str().expect("an id").to_string();
    let (_a, seat_welcome) =
        Client::hello(&server.ws_base, &id, Some(&token(&created, 0)), None).await;
    let (_b, _) = Client::hello(&server.ws_base, &id, Some(&token(&created, 1)), None).await;
    api.start(&id, &token(&created, 0)).await;
    // Seat 0 is to play: the game stays at this version.
    let (_s, spectator) = Client::hello(&server.ws_base, &id, None, None).await;

    let lobby = page(&server, "/").await;
    assert!(embedded(&lobby, "bastide-welcome").is_none());
    for path in [format!("/watch/{id}"), format!("/play/{id}")] {
        let html = page(&server, &path).await;
        // Nothing a name holds reaches the markup unescaped: exactly the
        // lobby's script elements and the two JSON ones end.
        assert!(!html.contains("alert(1)</script>") && !html.contains("<!--\""));
        assert_eq!(
            html.matches("</script>").count(),
            lobby.matches("</script>").count() + 2,
            "{path}"
        );
        assert!(!html.contains('\u{2028}'));
        let text = embedded(&html, "bastide-welcome").expect("the embedded welcome");
        assert!(!text.contains('<') && !text.contains('&') && text.contains("\\u003c/script"));
        let welcome: Value = serde_json::from_str(text).expect("JSON");
        // The public view, exactly what a spectator is told: no seat, and
        // not the seat's view (which shows its own halves).
        assert_eq!(welcome, spectator, "{path}");
        assert_eq!(welcome["welcome"]["players"], json!(evil));
        assert_eq!(welcome["welcome"]["view"]["seat"], Value::Null);
        assert!(welcome["welcome"].get("legal").is_none());
        assert_ne!(
            welcome["welcome"]["view"], seat_welcome["welcome"]["view"],
            "a seat's view differs from the public one"
        );
        // The board: one symbol per tile kind and rotation, one <use> per piece.
        let tiles: Value =
            serde_json::from_str(embedded(&html, "bastide-tiles").expect("the tiles"))
                .expect("JSON");
        let tiles = tiles.as_array().expect("a list");
        let board = welcome["welcome"]["view"]["board"]
            .as_array()
            .expect("a board");
        assert!(!board.is_empty() && !tiles.is_empty());
        assert!(html.contains(&format!("<svg class=\"board prefit\" data-game=\"{id}\"")));
        assert!(html.starts_with("<!doctype html>") && html.contains(BOARD_PAGE));
        assert_eq!(html.matches("<use href=\"#tile-").count(), board.len());
        for (n, t) in tiles.iter().enumerate() {
            assert_eq!(t["symbol"], json!(format!("tile-{n}")));
            assert!(html.contains(&format!("<symbol id=\"tile-{n}\"")));
            assert!(t["layout"]["spots"]
                .as_array()
                .is_some_and(|s| !s.is_empty()));
        }
        let first = &board[0];
        assert_eq!(
            tiles[0]["key"],
            json!(format!(
                "{}@{}",
                first["tile"].as_str().expect("a tile"),
                first["rotation"]
            ))
        );
    }
    server.stop().await;
}
both_stores!(game_page_embeds_the_public_board);

/// A wrong address is a 404 — the page still the client, which says
/// "no such game" or "no such page" and links to the lobby — while every
/// page the client has is a 200.
async fn wrong_addresses_are_not_found(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let cfg = serde_json::to_value(GameConfig::from_sets(2, 3, &["base"]).expect("a config"))
        .expect("JSON");
    let created = api.create(&cfg, &["human", "greedy"]).await;
    let id = created["id"].as_str().expect("an id").to_string();
    let lobby = page(&server, "/").await;
    for path in [
        "/watch/0123456789abcdef",
        "/play/0123456789abcdef",
        "/replay/0123456789abcdef",
        "/play/doesnotexist123",
        "/watch/zzz",
        "/replay/zzz",
        "/nonsense/path",
        &format!("/play/{id}/extra"),
    ] {
        let (status, html) = get_page(&server, path).await;
        assert_eq!(status, 404, "{path}");
        // The plain client: no board, no state of any game.
        assert_eq!(html, lobby, "{path}");
    }
    for path in [
        "/replay".to_string(),
        format!("/watch/{id}"),
        format!("/play/{id}"),
        format!("/replay/{id}"),
    ] {
        page(&server, &path).await;
    }
    // The game's data is a 404 too, for the client to tell.
    let (status, body) = api.get("/api/games/0123456789abcdef").await;
    assert_eq!((status, &body["error"]["code"]), (404, &json!("not_found")));
    let (status, _) = api.get("/api/games/0123456789abcdef/record").await;
    assert_eq!(status, 404);
    server.stop().await;
}
both_stores!(wrong_addresses_are_not_found);

async fn a_finished_games_page_holds_its_whole_board(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = Api::new(&server.base);
    let cfg = serde_json::to_value(GameConfig::from_sets(2, 9, &["base"]).expect("a config"))
        .expect("JSON");
    let created = api.create(&cfg, &["random", "random"]).await;
    let id = created["id"].as_str().expect("an id").to_string();
    let mut finished = false;
    for _ in 0..600 {
        if api.summary(&id).await["status"] == json!("finished") {
            finished = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(finished, "the bots finished the game");
    let html = page(&server, &format!("/watch/{id}")).await;
    let welcome: Value =
        serde_json::from_str(embedded(&html, "bastide-welcome").expect("a welcome")).expect("JSON");
    let board = welcome["welcome"]["view"]["board"]
        .as_array()
        .expect("a board");
    assert_eq!(welcome["welcome"]["status"], json!("finished"));
    assert!(board.len() > 60, "a whole base game: {}", board.len());
    assert_eq!(html.matches("<use href=\"#tile-").count(), board.len());
    // Every piece's <use> is where the client would put it, in board order.
    let mut at = 0;
    for p in board {
        let cell = format!("data-cell=\"{},{}\"", p["x"], p["y"]);
        let found = html[at..].find(&cell).expect("the piece's <use>");
        at += found + cell.len();
    }
    server.stop().await;
}
both_stores!(a_finished_games_page_holds_its_whole_board);

/// A map's description gives the browser the land's border (in tenths of
/// a square) around its squares, and an unknown map is not found.
async fn a_map_says_its_outline(db: &TestDb) {
    let server = TestServer::start(db).await;
    let api = common::Api::new(&server.base);
    let (status, map) = api.get("/api/maps/ukraine.json").await;
    assert_eq!(status, 200, "{map}");
    let outline = map["outline"].as_array().expect("an outline");
    assert!(outline.len() >= 20, "{map}");
    let cells = map["cells"].as_array().expect("cells");
    let corner = |v: &serde_json::Value, i: usize| v[i].as_i64().expect("a number");
    // Every square's top-left corner is within the outline's box.
    let (xs, ys): (Vec<i64>, Vec<i64>) =
        outline.iter().map(|c| (corner(c, 0), corner(c, 1))).unzip();
    for c in cells {
        let (x, y) = (corner(c, 0) * 10, corner(c, 1) * 10);
        assert!(
            xs.iter().any(|&ox| ox < x) && xs.iter().any(|&ox| ox > x + 10),
            "{c}"
        );
        assert!(
            ys.iter().any(|&oy| oy < y) && ys.iter().any(|&oy| oy > y + 10),
            "{c}"
        );
    }
    assert_eq!(api.get("/api/maps/atlantis.json").await.0, 404);
    server.stop().await;
}
both_stores!(a_map_says_its_outline);
