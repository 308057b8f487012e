//! Players over real sockets against both stores: accounts, sessions and
//! their cookie, seats held by account, a rated game whose end moves the
//! ratings by Glicko-2's amounts, a correspondence game's timeout
//! across a restart, and chat lines named by account (docs/server.md,
//! "Players", "Table chat").

mod common;

use std::time::Duration;

use bastide_server::guard::{Limits, Rate};
use bastide_server::rating::{self, Glicko, Outcome};
use bastide_server::Settings;
use common::{play_seat, token, Client, TestDb, TestServer};
use reqwest::Method;
use serde_json::{json, Value};

/// An HTTP client that keeps one session cookie, as a browser would.
struct Browser {
    base: String,
    http: reqwest::Client,
    cookie: Option<String>,
}

/// An answer: status, `Set-Cookie`, body.
struct Answer {
    status: u16,
    set_cookie: Option<String>,
    body: Value,
}

impl Browser {
    fn new(base: &str) -> Browser {
        Browser {
            base: base.to_string(),
            http: reqwest::Client::new(),
            cookie: None,
        }
    }

    async fn call(&mut self, method: Method, path: &str, body: Option<Value>) -> Answer {
        self.call_with(method, path, body, &[]).await
    }

    async fn call_with(
        &mut self,
        method: Method,
        path: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> Answer {
        let mut r = self.http.request(method, format!("{}{path}", self.base));
        if let Some(c) = &self.cookie {
            r = r.header("cookie", c);
        }
        for (k, v) in headers {
            r = r.header(*k, *v);
        }
        if let Some(b) = body {
            r = r.json(&b);
        }
        let r = r.send().await.expect("a request");
        let status = r.status().as_u16();
        let set_cookie = r
            .headers()
            .get("set-cookie")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        if let Some(c) = &set_cookie {
            // name=value; flags…: a browser sends back name=value.
            let pair = c.split(';').next().unwrap_or_default().to_string();
            self.cookie = (!pair.ends_with('=')).then_some(pair);
        }
        let body = r.json().await.unwrap_or(Value::Null);
        Answer {
            status,
            set_cookie,
            body,
        }
    }

    async fn sign_up(&mut self, name: &str, password: &str) -> Answer {
        self.call(
            Method::POST,
            "/api/accounts",
            Some(json!({"name": name, "password": password})),
        )
        .await
    }

    async fn sign_in(&mut self, name: &str, password: &str) -> Answer {
        self.sign_in_with(name, password, &[]).await
    }

    /// Signs in with more headers (a proxy's).
    async fn sign_in_with(
        &mut self,
        name: &str,
        password: &str,
        headers: &[(&str, &str)],
    ) -> Answer {
        self.call_with(
            Method::POST,
            "/api/sessions",
            Some(json!({"name": name, "password": password})),
            headers,
        )
        .await
    }

    /// `POST /api/games`.
    async fn create(&mut self, game: Value) -> Answer {
        self.call(Method::POST, "/api/games", Some(game)).await
    }

    /// `POST /api/games/ID/WHAT {"token": TOKEN}` (join, start, resign).
    async fn seat(&mut self, id: &str, what: &str, token: &str) -> Answer {
        self.call(
            Method::POST,
            &format!("/api/games/{id}/{what}"),
            Some(json!({ "token": token })),
        )
        .await
    }

    async fn get(&mut self, path: &str) -> Value {
        let a = self.call(Method::GET, path, None).await;
        assert_eq!(a.status, 200, "GET {path}: {}", a.body);
        a.body
    }
}

fn code(a: &Answer) -> &str {
    a.body["error"]["code"].as_str().unwrap_or_default()
}

async fn accounts_and_sessions(db: &TestDb) {
    let server = TestServer::start(db).await;
    let mut alice = Browser::new(&server.base);
    let a = alice.sign_up("Alice_1", "correct horse").await;
    assert_eq!(a.status, 201, "{}", a.body);
    assert_eq!(a.body["name"], json!("Alice_1"));
    // Names are unique whatever their case.
    let a = alice.sign_up("alice_1", "another password").await;
    assert_eq!((a.status, code(&a)), (409, "name_taken"), "{}", a.body);
    for bad in ["ab", "twenty-one-characters", "al ice", "alïce", "a/b"] {
        let a = alice.sign_up(bad, "long enough").await;
        assert_eq!((a.status, code(&a)), (400, "bad_name"), "{bad}: {}", a.body);
    }
    let a = alice.sign_up("Shorty", "short").await;
    assert_eq!((a.status, code(&a)), (400, "bad_name"), "{}", a.body);
    // A wrong password and an unknown name are refused alike.
    for (name, password) in [("Alice_1", "wrong horse"), ("Nobody", "correct horse")] {
        let a = alice.sign_in(name, password).await;
        assert_eq!((a.status, code(&a)), (401, "bad_credentials"), "{}", a.body);
        assert!(a.set_cookie.is_none());
    }
    let session = alice.get("/api/session").await;
    assert_eq!(session["signed_in"], json!(false));
    // Signing in, in any case, sets the cookie with its flags.
    let a = alice.sign_in("ALICE_1", "correct horse").await;
    assert_eq!(a.status, 200, "{}", a.body);
    let cookie = a.set_cookie.clone().expect("a session cookie");
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(cookie.contains(flag), "{cookie}");
    }
    // Over plain HTTP, and a client's own X-Forwarded-Proto is no proof.
    assert!(!cookie.contains("Secure"), "{cookie}");
    let session = alice.get("/api/session").await;
    assert_eq!(
        (session["signed_in"].clone(), session["name"].clone()),
        (json!(true), json!("Alice_1"))
    );
    let spoofed = alice
        .sign_in_with(
            "Alice_1",
            "correct horse",
            &[("x-forwarded-proto", "https")],
        )
        .await;
    assert!(!spoofed.set_cookie.unwrap_or_default().contains("Secure"));
    // A restart in between: the session lives in the store.
    server.stop().await;
    let server = TestServer::start_with(
        db,
        Settings {
            limits: Limits {
                trust_proxy: vec!["127.0.0.1/32".parse().expect("a network")],
                ..Limits::unlimited()
            },
            ..Settings::unlimited()
        },
    )
    .await;
    alice.base = server.base.clone();
    let session = alice.get("/api/session").await;
    assert_eq!(session["name"], json!("Alice_1"), "{session}");
    // Behind a trusted proxy that terminated TLS, the cookie is Secure.
    let mut behind = Browser::new(&server.base);
    let a = behind
        .sign_in_with(
            "alice_1",
            "correct horse",
            &[("x-forwarded-proto", "https")],
        )
        .await;
    assert!(
        a.set_cookie
            .clone()
            .unwrap_or_default()
            .contains("; Secure"),
        "{:?}",
        a.set_cookie
    );
    // Signing out ends the session and removes the cookie.
    let old = alice.cookie.clone();
    let a = alice.call(Method::DELETE, "/api/sessions", None).await;
    assert_eq!(a.status, 200);
    assert!(a.set_cookie.unwrap_or_default().contains("Max-Age=0"));
    alice.cookie = old;
    assert_eq!(alice.get("/api/session").await["signed_in"], json!(false));
    let a = alice.call(Method::GET, "/api/me/games", None).await;
    assert_eq!((a.status, code(&a)), (401, "sign_in_required"));
    server.stop().await;
}
both_stores!(accounts_and_sessions);

async fn a_session_is_good_on_every_instance(db: &TestDb) {
    // Two instances on one database, as in shared mode: the session is
    // in the database, so either knows it.
    let a = TestServer::start(db).await;
    let b = TestServer::start(db).await;
    let mut alice = player(&a.base, "alice").await;
    alice.base = b.base.clone();
    assert_eq!(alice.get("/api/session").await["name"], json!("alice"));
    let cookie = alice.cookie.clone();
    let out = alice.call(Method::DELETE, "/api/sessions", None).await;
    assert_eq!(out.status, 200);
    // Signed out on one instance: the old cookie is good on none.
    alice.cookie = cookie;
    alice.base = a.base.clone();
    assert_eq!(alice.get("/api/session").await["signed_in"], json!(false));
    a.stop().await;
    b.stop().await;
}
postgres_only!(a_session_is_good_on_every_instance);

async fn sign_in_is_rate_limited(db: &TestDb) {
    let server = TestServer::start_with(
        db,
        Settings {
            limits: Limits {
                sign_ins: Rate::new(1, 3),
                ..Limits::unlimited()
            },
            ..Settings::unlimited()
        },
    )
    .await;
    let mut b = Browser::new(&server.base);
    // Account creation draws from the same allowance: one, then two tries.
    assert_eq!(b.sign_up("Guessed", "the password").await.status, 201);
    for _ in 0..2 {
        assert_eq!(b.sign_in("Guessed", "a guess!").await.status, 401);
    }
    let a = b.sign_in("Guessed", "the password").await;
    assert_eq!((a.status, code(&a)), (429, "rate_limited"), "{}", a.body);
    server.stop().await;
}
mod sign_in_is_rate_limited {
    crate::store_test!(sqlite, sign_in_is_rate_limited);
}

/// Signs up and in.
async fn player(base: &str, name: &str) -> Browser {
    let mut b = Browser::new(base);
    assert_eq!(b.sign_up(name, "pass-word-1").await.status, 201);
    assert_eq!(b.sign_in(name, "pass-word-1").await.status, 200);
    b
}

/// A rated game of `player` against a greedy bot, resigned at once or
/// once both have moved; its id.
async fn rated_bot_game(player: &mut Browser, ws_base: &str, resign_at_once: bool) -> String {
    let a = player
        .create(json!({"config": {"players": ["RED", "BLUE"]},
                        "seats": ["human", "greedy"], "rated": true}))
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let id = a.body["id"].as_str().expect("an id").to_string();
    let t = token(&a.body, 0);
    let r = player.seat(&id, "resign", &t).await;
    assert_eq!(r.status, 409, "not started yet: {}", r.body);
    let r = player.seat(&id, "start", &t).await;
    assert_eq!(r.status, 200, "{}", r.body);
    if !resign_at_once {
        let cookie = player.cookie.clone().expect("a session");
        common::play_until_everyone_moved(ws_base, &id, &cookie, &t, 2).await;
    }
    let r = player.seat(&id, "resign", &t).await;
    assert_eq!(r.status, 200, "{}", r.body);
    id
}

async fn rated_game_moves_ratings(db: &TestDb) {
    let server = TestServer::start(db).await;
    let mut alice = player(&server.base, "Alice").await;
    let mut bob = player(&server.base, "bob").await;
    let mut guest = Browser::new(&server.base);
    // No seed: a rated game is dealt by the server (see
    // `a_rated_game_cannot_fix_the_draws`).
    let config = json!({"players": ["RED", "BLUE"]});
    let game = json!({"config": config, "seats": ["human", "human"], "rated": true});
    // A guest cannot create a rated game.
    let a = guest.create(game.clone()).await;
    assert_eq!(
        (a.status, code(&a)),
        (401, "sign_in_required"),
        "{}",
        a.body
    );
    let a = alice.create(game).await;
    assert_eq!(a.status, 201, "{}", a.body);
    let created = a.body;
    assert_eq!(created["seats"][0]["player"], json!("Alice"));
    let id = created["id"].as_str().expect("an id").to_string();
    // Alice is handed her own seat's token only.
    assert!(created["seats"][1].get("token").is_none(), "{created}");
    // A guest cannot take a rated seat; a signed-in player can, and the
    // game starts once every seat is taken.
    let sit = format!("/api/games/{id}/sit");
    let a = guest.call(Method::POST, &sit, Some(json!({}))).await;
    assert_eq!(
        (a.status, code(&a)),
        (401, "sign_in_required"),
        "{}",
        a.body
    );
    let a = bob.call(Method::POST, &sit, Some(json!({}))).await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body["status"], json!("playing"), "{}", a.body);
    let bobs = a.body["token"].as_str().expect("a token").to_string();
    // The lobby shows the names on the seats.
    let summary = alice.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary["seats"][0]["player"], json!("Alice"));
    assert_eq!(summary["seats"][1]["player"], json!("bob"));
    assert_eq!(summary["rated"], json!(true));
    let mine = alice.get("/api/me/games").await;
    assert_eq!(mine["games"][0]["game"], json!(id), "{mine}");
    // Seat 0 (Alice) acts first: her turn, not Bob's.
    let mine = alice.get("/api/me/games").await;
    assert_eq!(mine["games"][0]["your_turn"], json!(true), "{mine}");
    let theirs = bob.get("/api/me/games").await;
    assert_eq!(theirs["games"][0]["your_turn"], json!(false), "{theirs}");
    // Both play to the end.
    // Each from their own session: a rated seat answers no token alone.
    let cookie = |b: &Browser| b.cookie.clone().expect("a session");
    let (c0, w0) =
        Client::hello_as(&server.ws_base, &id, &cookie(&alice), &token(&created, 0)).await;
    let (c1, w1) = Client::hello_as(&server.ws_base, &id, &cookie(&bob), &bobs).await;
    let (p0, p1) = tokio::join!(play_seat(c0, w0, 1), play_seat(c1, w1, 2));
    assert!(!p0.is_empty() && !p1.is_empty());
    let summary = alice.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary["status"], json!("finished"), "{summary}");
    let scores: Vec<u32> = serde_json::from_value(summary["scores"].clone()).expect("scores");
    let places = rating::places(&scores, None);
    let expected: Vec<Glicko> = (0..2)
        .map(|s| {
            let results = rating::outcomes(s, &places, &[Glicko::NEW, Glicko::NEW]);
            rating::update(Glicko::NEW, &results, rating::TAU)
        })
        .collect();
    for (seat, name) in [(0, "Alice"), (1, "bob")] {
        let profile = guest.get(&format!("/api/players/{name}")).await;
        let duel = &profile["ratings"]["duel"];
        let rating = duel["rating"].as_f64().expect("a rating");
        let deviation = duel["deviation"].as_f64().expect("a deviation");
        assert!(
            (rating - expected[seat].rating).abs() < 1e-6,
            "{name}: {profile} vs {:?}",
            expected[seat]
        );
        assert!((deviation - expected[seat].deviation).abs() < 1e-6);
        assert_eq!(duel["games"], json!(1));
        let won = places[seat] == 1;
        assert_eq!(duel["wins"], json!(i64::from(won)));
        let recent = &profile["recent"][0];
        assert_eq!(recent["game"], json!(id));
        assert_eq!(recent["record"], json!(format!("/api/games/{id}/record")));
        assert_eq!(recent["replay"], json!(format!("/replay/{id}")));
        assert_eq!(recent["place"], json!(places[seat]));
        let change = recent["rating"]["change"].as_f64().expect("a change");
        assert!((change - (expected[seat].rating - 1500.0)).abs() < 1e-6);
        // The chart's one point: the rating after the game, its deviation.
        let history = &profile["history"];
        assert_eq!(history.as_array().map(Vec::len), Some(1), "{profile}");
        assert_eq!(history[0]["game"], json!(id));
        assert_eq!(history[0]["class"], json!("duel"));
        let after = history[0]["after"].as_f64().expect("after");
        assert!((after - expected[seat].rating).abs() < 1e-6);
        let dev = history[0]["deviation"].as_f64().expect("deviation");
        assert!((dev - expected[seat].deviation).abs() < 1e-6);
    }
    // The record link works; the game is no longer "mine" to play.
    let a = guest
        .call(Method::GET, &format!("/api/games/{id}/record"), None)
        .await;
    assert_eq!(a.status, 200);
    assert_eq!(alice.get("/api/me/games").await["games"], json!([]));
    let board = guest.get("/api/leaderboard").await;
    assert_eq!(
        board["players"].as_array().map(Vec::len),
        Some(2),
        "{board}"
    );
    assert!(
        board["players"][0]["rating"].as_f64() >= board["players"][1]["rating"].as_f64(),
        "{board}"
    );
    // A rated game against a bot moves only the person's rating; one
    // resigned before both moved moves nothing (lichess's aborted game).
    let before = guest.get("/api/players/Alice").await["ratings"]["duel"].clone();
    let aborted = rated_bot_game(&mut alice, &server.ws_base, true).await;
    let unmoved = guest.get("/api/players/Alice").await["ratings"]["duel"].clone();
    assert_eq!(unmoved, before, "resigned before moving: not rated");
    let said = guest.get(&format!("/api/games/{aborted}/ratings")).await;
    assert_eq!(said["changes"], json!([]), "{said}");
    rated_bot_game(&mut alice, &server.ws_base, false).await;
    let after = guest.get("/api/players/Alice").await["ratings"]["duel"].clone();
    let me = Glicko {
        rating: before["rating"].as_f64().expect("a rating"),
        deviation: before["deviation"].as_f64().expect("a deviation"),
        volatility: before["volatility"].as_f64().expect("a volatility"),
    };
    let bot = rating::bot_rating("greedy");
    let lost = rating::update(
        me,
        &[Outcome {
            rating: bot.rating,
            deviation: bot.deviation,
            score: 0.0,
        }],
        rating::TAU,
    );
    assert!(
        (after["rating"].as_f64().expect("a rating") - lost.rating).abs() < 1e-6,
        "{after} vs {lost:?}"
    );
    assert_eq!(after["games"], json!(2));
    server.stop().await;
}
both_stores!(rated_game_moves_ratings);

async fn rated_multi_is_pairwise(db: &TestDb) {
    let server = TestServer::start(db).await;
    let mut carol = player(&server.base, "carol").await;
    let alone = carol
        .create(json!({"config": {"players": ["RED"]}, "seats": ["human"], "rated": true}))
        .await;
    assert_eq!(
        alone.status, 400,
        "a game alone is not rated: {}",
        alone.body
    );
    let a = carol
        .create(json!({"config": {"players": ["RED", "BLUE", "GREEN"]},
                       "seats": ["human", "random", "mcts:50"], "rated": true}))
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let (id, t) = (a.body["id"].as_str().map(str::to_string), token(&a.body, 0));
    let id = id.expect("an id");
    assert_eq!(carol.seat(&id, "start", &t).await.status, 200);
    let cookie = carol.cookie.clone().expect("a session");
    common::play_until_everyone_moved(&server.ws_base, &id, &cookie, &t, 3).await;
    assert_eq!(carol.seat(&id, "resign", &t).await.status, 200);
    // Resigned: behind both bots, a loss against each, in one period.
    let results: Vec<Outcome> = ["random", "mcts:50"]
        .iter()
        .map(|b| {
            let r = rating::bot_rating(b);
            Outcome {
                rating: r.rating,
                deviation: r.deviation,
                score: 0.0,
            }
        })
        .collect();
    let expected = rating::update(Glicko::NEW, &results, rating::TAU);
    let profile = carol.get("/api/players/carol").await;
    let multi = &profile["ratings"]["multi"];
    assert!(
        (multi["rating"].as_f64().expect("a rating") - expected.rating).abs() < 1e-6,
        "{profile} vs {expected:?}"
    );
    assert!(profile["ratings"].get("duel").is_none(), "{profile}");
    assert_eq!(profile["recent"][0]["place"], json!(3));
    server.stop().await;
}
both_stores!(rated_multi_is_pairwise);

async fn a_rated_game_cannot_fix_the_draws(db: &TestDb) {
    let server = TestServer::start(db).await;
    let mut erin = player(&server.base, "erin").await;
    let players = json!(["RED", "BLUE"]);
    // Each field fixes hidden information its creator would then know.
    for (field, value) in [
        ("seed", json!(7)),
        ("deck", json!(["base/U", "base/E", "base/V"])),
        ("deck_only", json!(true)),
        ("hands", json!([[], []])),
        ("chips", json!([])),
        ("chip_draws", json!([])),
    ] {
        let mut config = json!({ "players": players });
        config[field] = value;
        let game = json!({"config": config, "seats": ["human", "greedy"], "rated": true});
        let a = erin.create(game.clone()).await;
        assert_eq!(
            (a.status, code(&a)),
            (400, "bad_request"),
            "{field}: {}",
            a.body
        );
        let message = a.body["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(&format!("config.{field}")) && message.contains("unrated"),
            "{field}: {message}"
        );
        // Unrated, the same request is the creator's business (the
        // engine may still refuse a field it does not know).
        let mut unrated = game;
        unrated["rated"] = json!(false);
        let a = erin.create(unrated).await;
        assert!(
            a.status == 201 || !a.body.to_string().contains("rated game"),
            "{field}: {}",
            a.body
        );
    }
    // A bot whose settings the ladder never rated is refused too; its
    // budget alone is fine.
    let odd = json!({"config": {"players": players},
                     "seats": ["human", "mcts:50:width=1"], "rated": true});
    let a = erin.create(odd).await;
    assert_eq!(a.status, 400, "{}", a.body);
    let message = a.body["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("seat 1") && message.contains("ladder"),
        "{message}"
    );
    let plain = json!({"config": {"players": players},
                       "seats": ["human", "mcts:50"], "rated": true});
    assert_eq!(erin.create(plain).await.status, 201);
    server.stop().await;
}
both_stores!(a_rated_game_cannot_fix_the_draws);

async fn signed_in(b: &mut Browser) -> bool {
    b.get("/api/session").await["signed_in"] == json!(true)
}

async fn a_password_change_and_signing_out_everywhere(db: &TestDb) {
    let server = TestServer::start(db).await;
    let mut phone = player(&server.base, "frank").await;
    let mut laptop = Browser::new(&server.base);
    assert_eq!(laptop.sign_in("frank", "pass-word-1").await.status, 200);
    let change = |current: &str, new: &str| json!({"current": current, "new": new});
    let path = "/api/me/password";
    let mut guest = Browser::new(&server.base);
    let a = guest
        .call(
            Method::POST,
            path,
            Some(change("pass-word-1", "new-pass-word")),
        )
        .await;
    assert_eq!(
        (a.status, code(&a)),
        (401, "sign_in_required"),
        "{}",
        a.body
    );
    // The current password is needed, and checked; a bad new one is named.
    let a = phone
        .call(
            Method::POST,
            path,
            Some(change("not-my-password", "new-pass-word")),
        )
        .await;
    assert_eq!((a.status, code(&a)), (401, "bad_credentials"), "{}", a.body);
    let a = phone
        .call(Method::POST, path, Some(change("pass-word-1", "short")))
        .await;
    assert_eq!((a.status, code(&a)), (400, "bad_name"), "{}", a.body);
    assert!(signed_in(&mut phone).await && signed_in(&mut laptop).await);
    // Changed: this session stays, the other one is signed out.
    let a = phone
        .call(
            Method::POST,
            path,
            Some(change("pass-word-1", "new-pass-word")),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body["signed_out"], json!(1), "{}", a.body);
    assert!(signed_in(&mut phone).await);
    assert!(!signed_in(&mut laptop).await);
    assert_eq!(laptop.sign_in("frank", "pass-word-1").await.status, 401);
    assert_eq!(laptop.sign_in("frank", "new-pass-word").await.status, 200);
    // Signing out everywhere ends both sessions and removes this cookie.
    let a = laptop.call(Method::DELETE, "/api/me/sessions", None).await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body["signed_out"], json!(2), "{}", a.body);
    assert!(
        a.set_cookie
            .as_deref()
            .is_some_and(|c| c.contains("Max-Age=0")),
        "{:?}",
        a.set_cookie
    );
    assert!(!signed_in(&mut phone).await);
    assert!(!signed_in(&mut laptop).await);
    let a = phone.call(Method::DELETE, "/api/me/sessions", None).await;
    assert_eq!(
        (a.status, code(&a)),
        (401, "sign_in_required"),
        "{}",
        a.body
    );
    server.stop().await;
}
both_stores!(a_password_change_and_signing_out_everywhere);

async fn a_guest_claims_their_games(db: &TestDb) {
    let server = TestServer::start(db).await;
    let mut guest = Browser::new(&server.base);
    let a = guest
        .create(json!({"config": {"players": ["RED", "BLUE"], "seed": 4},
                       "seats": ["human", "human"]}))
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let created = a.body;
    let id = created["id"].as_str().expect("an id").to_string();
    let t = token(&created, 0);
    assert_eq!(guest.seat(&id, "start", &t).await.status, 200);
    assert_eq!(guest.seat(&id, "resign", &t).await.status, 200);
    let claim = json!({"game": id, "token": t});
    let a = guest
        .call(Method::POST, "/api/me/claim", Some(claim.clone()))
        .await;
    assert_eq!((a.status, code(&a)), (401, "sign_in_required"));
    // The guest signs up: the ended game joins their history.
    let mut dave = player(&server.base, "dave").await;
    let forged = json!({"game": id, "token": "0".repeat(32)});
    let a = dave.call(Method::POST, "/api/me/claim", Some(forged)).await;
    assert_eq!((a.status, code(&a)), (403, "bad_token"), "{}", a.body);
    let a = dave
        .call(Method::POST, "/api/me/claim", Some(claim.clone()))
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    let profile = dave.get("/api/players/dave").await;
    assert_eq!(profile["recent"][0]["game"], json!(id), "{profile}");
    assert_eq!(profile["recent"][0]["place"], json!(2), "{profile}");
    assert_eq!(
        dave.get(&format!("/api/games/{id}")).await["seats"][0]["player"],
        json!("dave")
    );
    // A seat held by one account is not another's to claim.
    let mut eve = player(&server.base, "eve").await;
    let a = eve.call(Method::POST, "/api/me/claim", Some(claim)).await;
    assert_eq!((a.status, code(&a)), (403, "forbidden"), "{}", a.body);
    server.stop().await;
}
both_stores!(a_guest_claims_their_games);

async fn correspondence_timeout(db: &TestDb) {
    let settings = || Settings {
        // A "day" of a few seconds; adjournment as eager as it gets.
        correspondence_day: Duration::from_millis(15_000),
        adjourn_after: Some(Duration::from_millis(1)),
        ..Settings::unlimited()
    };
    let server = TestServer::start_with(db, settings()).await;
    let mut alice = player(&server.base, "Alice").await;
    let config = json!({"players": ["RED", "BLUE"], "seed": 3});
    let a = alice
        .create(json!({"config": config, "seats": ["human", "human"],
                        "clock": {"days_per_move": 4}}))
        .await;
    assert_eq!(a.status, 400, "{}", a.body);
    let a = alice
        .create(json!({"config": config, "seats": ["human", "human"],
                        "clock": {"days_per_move": 1}}))
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let created = a.body;
    let id = created["id"].as_str().expect("an id").to_string();
    let a = alice.seat(&id, "start", &token(&created, 0)).await;
    assert_eq!(a.status, 200, "{}", a.body);
    let summary = alice.get(&format!("/api/games/{id}")).await;
    assert_eq!(summary["status"], json!("playing"));
    // A restart in between; nobody connected, yet the game is not
    // adjourned: its clock runs.
    server.stop().await;
    let server = TestServer::start_with(db, settings()).await;
    alice.base = server.base.clone();
    assert_eq!(server.running.hub.adjourn_pass().await, 0);
    let mine = alice.get("/api/me/games").await;
    assert_eq!(mine["games"][0]["your_turn"], json!(true), "{mine}");
    let (mut watcher, welcome) = Client::hello(&server.ws_base, &id, None, None).await;
    assert_eq!(
        welcome["welcome"]["clock"]["spec"]["days_per_move"],
        json!(1),
        "{welcome}"
    );
    // Alice (seat 0) never moves: she loses on time.
    let ended = loop {
        let m = watcher.next().await;
        if let Some(s) = m.get("status").filter(|s| s["status"] == json!("resigned")) {
            break s.clone();
        }
    };
    assert_eq!(
        (ended["resigned"].clone(), ended["timeout"].clone()),
        (json!(0), json!(0))
    );
    let profile = alice.get("/api/players/Alice").await;
    assert_eq!(profile["recent"][0]["game"], json!(id), "{profile}");
    assert_eq!(profile["recent"][0]["won"], json!(false), "{profile}");
    server.stop().await;
}
both_stores!(correspondence_timeout);

/// The next text frame of a socket opened by hand (with a cookie).
async fn next_text(
    ws: &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
) -> String {
    use futures_util::StreamExt;
    loop {
        match tokio::time::timeout(Duration::from_secs(30), ws.next()).await {
            Ok(Some(Ok(tokio_tungstenite::tungstenite::Message::Text(t)))) => return t.to_string(),
            Ok(Some(Ok(_))) => {}
            other => panic!("no text frame: {other:?}"),
        }
    }
}

async fn chat_names_signed_in_players(db: &TestDb) {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    use tokio_tungstenite::tungstenite::Message;

    let server = TestServer::start(db).await;
    let mut alice = player(&server.base, "Alice").await;
    let carol = player(&server.base, "carol").await;
    let game =
        json!({"config": {"players": ["RED", "BLUE"], "seed": 3}, "seats": ["human", "human"]});
    let a = alice.create(game).await;
    assert_eq!(a.status, 201, "{}", a.body);
    let id = a.body["id"].as_str().expect("an id").to_string();
    // A signed-in spectator: the session cookie on the WebSocket's request.
    let mut request = format!("{}/api/games/{id}/ws", server.ws_base)
        .into_client_request()
        .expect("a request");
    let cookie = carol.cookie.clone().expect("carol's cookie");
    request
        .headers_mut()
        .insert("cookie", cookie.parse().expect("a header"));
    let (mut watcher, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("connect");
    let hello = json!({"hello": {"token": null, "since": null}}).to_string();
    watcher
        .send(Message::Text(hello.into()))
        .await
        .expect("send");
    // Its welcome first: the seat's line then comes as an update.
    while !next_text(&mut watcher).await.contains("\"welcome\"") {}
    let (mut seat, _) = Client::hello(&server.ws_base, &id, Some(&token(&a.body, 0)), None).await;
    seat.send(&json!({"chat": {"text": "hello"}})).await;
    let said = loop {
        if let Some(l) = seat.next().await.get("chat") {
            break l.clone();
        }
    };
    assert_eq!(
        (said["from"].clone(), said["player"].clone()),
        (json!("Alice"), json!("Alice"))
    );
    let text = json!({"chat": {"text": "hi from the stands"}}).to_string();
    watcher
        .send(Message::Text(text.into()))
        .await
        .expect("send");
    // The spectator reads Alice's line, then their own, named.
    let mut lines = Vec::new();
    while lines.len() < 2 {
        let v: Value = serde_json::from_str(&next_text(&mut watcher).await).expect("JSON");
        if let Some(l) = v.get("chat") {
            lines.push(l.clone());
        }
    }
    assert_eq!(lines[1]["from"], json!("carol"), "{lines:?}");
    assert_eq!(lines[1]["channel"], json!("spectators"));
    server.stop().await;
}
both_stores!(chat_names_signed_in_players);
