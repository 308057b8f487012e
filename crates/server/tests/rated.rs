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
    let (status, body) = creator
        .post(&format!("/api/games/{id}/resign"), &json!({"token": mine}))
        .await;
    assert_eq!(status, 200, "{body}");
    id
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
