//! Rated play that means what it says (issue 50), over real sockets
//! against both stores: a rated game's seats taken by accounts, never by
//! a token the creator was handed; a game resigned before everyone moved
//! not rated; one pair of accounts, or accounts seen at one address,
//! rated against each other a few times a day at most; new accounts
//! provisional; an operator voiding a cheat's results.

mod common;

use bastide_server::guard::Limits;
use bastide_server::rating::RATED_PAIRS_PER_DAY;
use bastide_server::Settings;
use common::{TestDb, TestServer};
use serde_json::{json, Value};

/// The operator's token in these tests.
const OPERATOR: &str = "3f9c2a7e5b1d48c6a0e9f7b3d2c14e8a";

/// A server that believes `X-Forwarded-For` from loopback (so that each
/// player may come from an address of the test's choosing), with the
/// operator's endpoints on and no rate limits.
async fn server(db: &TestDb) -> TestServer {
    TestServer::start_with(
        db,
        Settings {
            limits: Limits {
                trust_proxy: vec!["127.0.0.0/8".parse().expect("a network")],
                ..Limits::unlimited()
            },
            admin_token: Some(bastide_server::token::hash_token(OPERATOR)),
            ..Settings::unlimited()
        },
    )
    .await
}

/// A signed-in player and the address their requests come from.
struct Player {
    base: String,
    cookie: String,
    from: &'static str,
}

impl Player {
    /// Signs `name` up and in from `from`.
    async fn new(base: &str, name: &str, from: &'static str) -> Player {
        let who = json!({"name": name, "password": "pass-word-1"});
        let http = reqwest::Client::new();
        let r = http
            .post(format!("{base}/api/accounts"))
            .header("x-forwarded-for", from)
            .json(&who)
            .send()
            .await
            .expect("sign up");
        assert_eq!(r.status().as_u16(), 201);
        let r = http
            .post(format!("{base}/api/sessions"))
            .header("x-forwarded-for", from)
            .json(&who)
            .send()
            .await
            .expect("sign in");
        assert_eq!(r.status().as_u16(), 200);
        let cookie = r
            .headers()
            .get("set-cookie")
            .and_then(|v| v.to_str().ok())
            .and_then(|c| c.split(';').next())
            .expect("a session cookie")
            .to_string();
        Player {
            base: base.to_string(),
            cookie,
            from,
        }
    }

    /// POSTs JSON from this player's address and session.
    async fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let r = reqwest::Client::new()
            .post(format!("{}{path}", self.base))
            .header("x-forwarded-for", self.from)
            .header("cookie", &self.cookie)
            .json(body)
            .send()
            .await
            .expect("POST");
        (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
    }
}

/// GETs JSON.
async fn get(base: &str, path: &str) -> Value {
    reqwest::get(format!("{base}{path}"))
        .await
        .expect("GET")
        .json()
        .await
        .expect("JSON")
}

/// A rated duel: `creator` creates it, `rival` takes the other seat from
/// the lobby (which starts it), both move (unless `at_once`), and the
/// creator resigns: the rival wins. The game's id.
async fn duel(server: &TestServer, creator: &Player, rival: &Player, at_once: bool) -> String {
    let (id, mine) = seated(server, creator, rival, at_once).await;
    let (status, body) = creator
        .post(&format!("/api/games/{id}/resign"), &json!({"token": mine}))
        .await;
    assert_eq!(status, 200, "{body}");
    id
}

/// A rated duel up to the creator's resignation: created, the rival
/// seated, both moved (unless `at_once`). The game's id and the
/// creator's token.
async fn seated(
    server: &TestServer,
    creator: &Player,
    rival: &Player,
    at_once: bool,
) -> (String, String) {
    let game =
        json!({"config": {"players": ["RED", "BLUE"]}, "seats": ["human", "human"], "rated": true});
    let (status, created) = creator.post("/api/games", &game).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id").to_string();
    let mine = common::token(&created, 0);
    let (status, sat) = rival
        .post(&format!("/api/games/{id}/sit"), &json!({}))
        .await;
    assert_eq!(status, 200, "{sat}");
    assert_eq!(sat["status"], json!("playing"), "{sat}");
    let theirs = sat["token"].as_str().expect("a token").to_string();
    if !at_once {
        tokio::join!(
            common::play_until_everyone_moved(&server.ws_base, &id, &creator.cookie, &mine, 2),
            common::play_until_everyone_moved(&server.ws_base, &id, &rival.cookie, &theirs, 2),
        );
    }
    (id, mine)
}

/// How many seats a game's end moved the rating of.
async fn changes(base: &str, id: &str) -> usize {
    get(base, &format!("/api/games/{id}/ratings")).await["changes"]
        .as_array()
        .map_or(0, Vec::len)
}

/// A player's standing in two-player games (`null`: none).
async fn duel_standing(base: &str, name: &str) -> Value {
    get(base, &format!("/api/players/{name}")).await["ratings"]["duel"].clone()
}

/// The creator of a rated game gets its own seat's token only; the other
/// seat's invite is the game's address, by which a signed-in player takes
/// it, a private game's too. A game resigned before both moved is not
/// rated; one resigned after is, and a new account's rating says it is
/// provisional.
async fn rated_seats_go_to_accounts(db: &TestDb) {
    let server = server(db).await;
    let base = server.base.clone();
    let alice = Player::new(&base, "alice", "10.0.0.1").await;
    let bob = Player::new(&base, "bob", "10.0.0.2").await;
    let game = json!({"config": {"players": ["RED", "BLUE", "GREEN"]},
                      "seats": ["human", "human", "human"], "rated": true, "private": true});
    let (status, created) = alice.post("/api/games", &game).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id");
    assert!(created["seats"][0]["token"].is_string(), "{created}");
    for seat in [1, 2] {
        let s = &created["seats"][seat];
        assert!(
            s.get("token").is_none(),
            "no token of another's seat: {created}"
        );
        assert_eq!(s["invite"], json!(format!("{base}/play/{id}")), "{created}");
    }
    // Private and rated: its address is the invite.
    let (status, sat) = bob.post(&format!("/api/games/{id}/sit"), &json!({})).await;
    assert_eq!((status, sat["seat"].clone()), (200, json!(1)), "{sat}");
    // Private and unrated: seated by invite link (a token) only.
    let unrated = json!({"config": {"players": ["RED", "BLUE"]},
                         "seats": ["human", "human"], "private": true});
    let (_, created) = alice.post("/api/games", &unrated).await;
    assert!(created["seats"][1]["token"].is_string(), "{created}");
    let other = created["id"].as_str().expect("an id");
    let (status, _) = bob
        .post(&format!("/api/games/{other}/sit"), &json!({}))
        .await;
    assert_eq!(status, 403);

    let aborted = duel(&server, &alice, &bob, true).await;
    assert_eq!(changes(&base, &aborted).await, 0, "resigned before moving");
    assert_eq!(duel_standing(&base, "alice").await, Value::Null);
    let played = duel(&server, &alice, &bob, false).await;
    assert_eq!(changes(&base, &played).await, 2, "both moved: rated");
    let bobs = duel_standing(&base, "bob").await;
    assert!(bobs["rating"].as_f64() > Some(1500.0), "{bobs}");
    assert_eq!(bobs["provisional"], json!(true), "one game: {bobs}");
    let board = get(&base, "/api/leaderboard").await;
    assert_eq!(board["players"][0]["provisional"], json!(true), "{board}");
    server.stop().await;
}
both_stores!(rated_seats_go_to_accounts);

/// One pair of accounts is rated against each other at most
/// `RATED_PAIRS_PER_DAY` times a day; so are accounts seen at one
/// address, whichever pairs of them play.
async fn rated_pairs_count_a_few_times_a_day(db: &TestDb) {
    let server = server(db).await;
    let base = server.base.clone();
    let alice = Player::new(&base, "alice", "10.0.0.1").await;
    let bob = Player::new(&base, "bob", "10.0.0.2").await;
    let limit = usize::try_from(RATED_PAIRS_PER_DAY).expect("a small number");
    for game in 0..=limit {
        let id = duel(&server, &alice, &bob, false).await;
        let expected = if game < limit { 2 } else { 0 };
        assert_eq!(
            changes(&base, &id).await,
            expected,
            "alice and bob's game {game}"
        );
    }
    assert_eq!(duel_standing(&base, "bob").await["games"], json!(limit));

    // Three accounts of one household (one address): any pairs of them.
    let carol = Player::new(&base, "carol", "10.0.1.1").await;
    let erin = Player::new(&base, "erin", "10.0.1.1").await;
    let frank = Player::new(&base, "frank", "10.0.1.1").await;
    let pairs = [(&carol, &erin), (&erin, &frank), (&carol, &erin)];
    for (a, b) in pairs.into_iter().take(limit) {
        let id = duel(&server, a, b, false).await;
        assert_eq!(changes(&base, &id).await, 2);
    }
    // A pair that has not played yet, but the address has had its games.
    let id = duel(&server, &carol, &frank, false).await;
    assert_eq!(
        changes(&base, &id).await,
        0,
        "the household's allowance is spent"
    );
    // A stranger's games with them still count.
    let id = duel(&server, &alice, &frank, false).await;
    assert_eq!(changes(&base, &id).await, 2);
    server.stop().await;
}
both_stores!(rated_pairs_count_a_few_times_a_day);

/// An operator voids a cheat's rated results: the cheat's opponents get
/// back what they lost, the cheat starts over, the games say no changes.
async fn an_operator_voids_a_players_results(db: &TestDb) {
    let server = server(db).await;
    let base = server.base.clone();
    let alice = Player::new(&base, "alice", "10.0.0.1").await;
    let bob = Player::new(&base, "bob", "10.0.0.2").await;
    let carol = Player::new(&base, "carol", "10.0.0.3").await;
    // Bob beats Alice and Carol (each resigns); Alice beats Carol.
    let g1 = duel(&server, &alice, &bob, false).await;
    let g2 = duel(&server, &carol, &bob, false).await;
    let g3 = duel(&server, &carol, &alice, false).await;
    let alices_change = get(&base, &format!("/api/games/{g3}/ratings")).await["changes"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["player"] == json!("alice")).cloned())
        .expect("alice's change");
    let won = alices_change["change"].as_f64().expect("a change");

    let void = |token: &'static str| {
        let base = base.clone();
        async move {
            let r = reqwest::Client::new()
                .post(format!("{base}/api/admin/players/bob/void"))
                .header("authorization", format!("Bearer {token}"))
                .send()
                .await
                .expect("POST");
            (
                r.status().as_u16(),
                r.json::<Value>().await.unwrap_or(Value::Null),
            )
        }
    };
    assert_eq!(void("not-the-token").await.0, 403);
    let (status, body) = void(OPERATOR).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!({"player": "bob", "voided": 2}));

    assert_eq!(
        duel_standing(&base, "bob").await,
        Value::Null,
        "bob starts over"
    );
    for g in [&g1, &g2] {
        assert_eq!(changes(&base, g).await, 0, "voided");
    }
    assert_eq!(changes(&base, &g3).await, 2, "a game without bob stands");
    // Alice keeps only her win over Carol; Carol only her loss to Alice.
    let alices = duel_standing(&base, "alice").await;
    assert_eq!(
        (alices["games"].clone(), alices["wins"].clone()),
        (json!(1), json!(1))
    );
    let rating = alices["rating"].as_f64().expect("a rating");
    assert!(
        (rating - (1500.0 + won)).abs() < 1e-6,
        "alice's loss to bob refunded: {alices}, won {won}"
    );
    let carols = duel_standing(&base, "carol").await;
    assert_eq!(
        (carols["games"].clone(), carols["wins"].clone()),
        (json!(1), json!(0))
    );
    let history = get(&base, "/api/players/bob").await["history"].clone();
    assert_eq!(history, json!([]));
    let r = reqwest::Client::new()
        .post(format!("{base}/api/admin/players/nobody/void"))
        .header("authorization", format!("Bearer {OPERATOR}"))
        .send()
        .await
        .expect("POST");
    assert_eq!(r.status().as_u16(), 404);
    server.stop().await;
}
both_stores!(an_operator_voids_a_players_results);

/// Two rated games that end at the same instant, with one game left of
/// a day's allowance: one is rated, never both, whether the allowance is
/// the pair's (the same two accounts) or the household's (two pairs seen
/// at one address). The count and its check are one step in the store.
async fn the_last_rated_game_of_the_day_is_counted_once(db: &TestDb) {
    let server = server(db).await;
    let base = server.base.clone();
    let limit = usize::try_from(RATED_PAIRS_PER_DAY).expect("a small number");
    let alice = Player::new(&base, "alice", "10.0.0.1").await;
    let bob = Player::new(&base, "bob", "10.0.0.2").await;
    let carol = Player::new(&base, "carol", "10.0.1.1").await;
    let erin = Player::new(&base, "erin", "10.0.1.1").await;
    let frank = Player::new(&base, "frank", "10.0.1.1").await;
    let gina = Player::new(&base, "gina", "10.0.1.1").await;
    for _ in 1..limit {
        duel(&server, &alice, &bob, false).await;
        duel(&server, &carol, &erin, false).await;
    }
    let races = [
        ("the pair's", [(&alice, &bob), (&bob, &alice)]),
        ("the household's", [(&carol, &frank), (&erin, &gina)]),
    ];
    for (allowance, [(a, b), (c, d)]) in races {
        let ((first, a_token), (second, c_token)) =
            tokio::join!(seated(&server, a, b, false), seated(&server, c, d, false));
        // Both resignations in flight at once.
        let (p1, p2) = (
            format!("/api/games/{first}/resign"),
            format!("/api/games/{second}/resign"),
        );
        let (b1, b2) = (json!({"token": a_token}), json!({"token": c_token}));
        let (r1, r2) = tokio::join!(a.post(&p1, &b1), c.post(&p2, &b2));
        assert_eq!((r1.0, r2.0), (200, 200), "{r1:?} {r2:?}");
        let rated = changes(&base, &first).await + changes(&base, &second).await;
        assert_eq!(
            rated, 2,
            "{allowance} last game rated once, not {rated} / 2 times"
        );
    }
    server.stop().await;
}
both_stores!(the_last_rated_game_of_the_day_is_counted_once);

/// Makes `name`'s duel rating established (a deviation well under
/// `PROVISIONAL_DEVIATION`), as many games would, straight in the
/// database: a test cannot play the dozens of rated games it takes in
/// its time, and the daily allowance forbids them anyway.
async fn establish(db: &TestDb, name: &str) {
    use sqlx::Connection;
    let sql = "UPDATE ratings SET deviation = 60 \
               WHERE class = 'duel' AND account = (SELECT id FROM accounts WHERE name = $1)";
    let changed = match db {
        TestDb::Sqlite(_) => {
            let options = sqlx::sqlite::SqliteConnectOptions::new().filename(db.url());
            let mut c = sqlx::SqliteConnection::connect_with(&options)
                .await
                .expect("the test's SQLite file");
            sqlx::query(sql)
                .bind(name)
                .execute(&mut c)
                .await
                .map(|r| r.rows_affected())
        }
        TestDb::Postgres { .. } => {
            let mut c = sqlx::PgConnection::connect(&db.url())
                .await
                .expect("the test's schema");
            sqlx::query(sql)
                .bind(name)
                .execute(&mut c)
                .await
                .map(|r| r.rows_affected())
        }
    }
    .expect("the update");
    assert_eq!(changed, 1, "{name} has a duel rating");
}

/// The leaderboard ranks established players before provisional ones,
/// each by rating: a new account that won its only game does not go
/// above an established player of lower rating.
async fn the_leaderboard_puts_established_players_first(db: &TestDb) {
    let server = server(db).await;
    let base = server.base.clone();
    let alice = Player::new(&base, "alice", "10.0.0.1").await;
    let bob = Player::new(&base, "bob", "10.0.0.2").await;
    let carol = Player::new(&base, "carol", "10.0.0.3").await;
    let dave = Player::new(&base, "dave", "10.0.0.4").await;
    // The creator resigns: bob and dave win, alice and carol lose.
    duel(&server, &alice, &bob, false).await;
    duel(&server, &carol, &dave, false).await;
    establish(db, "carol").await;
    establish(db, "dave").await;

    let board = get(&base, "/api/leaderboard").await;
    let rows = board["players"].as_array().expect("players");
    let seen: Vec<(String, bool, f64)> = rows
        .iter()
        .map(|p| {
            (
                p["name"].as_str().expect("a name").to_string(),
                p["provisional"].as_bool().expect("provisional or not"),
                p["rating"].as_f64().expect("a rating"),
            )
        })
        .collect();
    let names: Vec<&str> = seen.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(names, ["dave", "carol", "bob", "alice"], "{board}");
    let provisional: Vec<bool> = seen.iter().map(|(_, p, _)| *p).collect();
    assert_eq!(provisional, [false, false, true, true], "{board}");
    // Carol, established, lost her game: she is above bob, who won his.
    assert!(seen[1].2 < seen[2].2, "{board}");
    server.stop().await;
}
both_stores!(the_leaderboard_puts_established_players_first);
