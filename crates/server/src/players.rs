//! Players over HTTP (docs/server.md, "Players"): accounts, sessions held
//! by a cookie, a player's games, profiles and the leaderboard.
//!
//! Passwords are hashed with argon2id and never logged or stored in
//! clear. A session's cookie holds 128 random bits; the store keeps only
//! their SHA-256, as it does for seat tokens, so the session table read
//! by an intruder signs nobody in. Sessions live in the store: in shared
//! mode every instance knows them.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Extension, Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::api::{body, ApiError, ApiResult};
use crate::hub::Hub;
use crate::protocol::{ErrorCode, ProtocolError};
use crate::rating::Class;
use crate::store::players::{Account, RatingPoint, SeatOf};
use crate::store::StoreError;
use crate::token;

/// The session cookie's name.
pub const COOKIE: &str = "bastide_session";

/// How long a session lasts: 30 days.
const SESSION_MS: i64 = 30 * 24 * 3600 * 1000;

/// Account names: this many characters at least and at most.
pub const NAME_CHARS: std::ops::RangeInclusive<usize> = 3..=20;

/// Passwords: this many characters at least and at most (the upper bound
/// keeps a megabyte's hashing from being asked for).
pub const PASSWORD_CHARS: std::ops::RangeInclusive<usize> = 8..=128;

/// Games listed on a profile and in "my games".
const LISTED: u32 = 50;

/// Rating changes on a profile's chart (the newest ones).
const CHARTED: u32 = 500;

/// The players' routes.
pub fn router() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/accounts", post(create_account))
        .route("/api/sessions", post(sign_in).delete(sign_out))
        .route("/api/session", get(session))
        .route("/api/me/games", get(my_games))
        .route("/api/me/claim", post(claim))
        .route("/api/me/password", post(change_password))
        .route("/api/me/sessions", delete(sign_out_everywhere))
        .route("/api/players/{name}", get(profile))
        .route("/api/leaderboard", get(leaderboard))
}

fn refuse(code: ErrorCode, message: impl Into<String>) -> ApiError {
    ApiError(ProtocolError::new(code, message))
}

fn store_down(e: StoreError) -> ApiError {
    tracing::error!("store: {e}");
    refuse(
        ErrorCode::Unavailable,
        "the store is unavailable; nothing changed, try again",
    )
}

/// Checks an account name: 3 to 20 letters, digits, `_` or `-`.
pub fn check_name(name: &str) -> Result<(), String> {
    let n = name.chars().count();
    if !NAME_CHARS.contains(&n) {
        return Err(format!(
            "a name has {} to {} characters, not {n}",
            NAME_CHARS.start(),
            NAME_CHARS.end()
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(format!(
            "a name is made of the letters a to z, digits, _ and -, not {c:?}"
        ));
    }
    Ok(())
}

fn check_password(password: &str) -> Result<(), String> {
    let n = password.chars().count();
    if PASSWORD_CHARS.contains(&n) {
        Ok(())
    } else {
        Err(format!(
            "a password has {} to {} characters",
            PASSWORD_CHARS.start(),
            PASSWORD_CHARS.end()
        ))
    }
}

/// Hashes a password with argon2id (the crate's defaults: OWASP's
/// 19 MiB, two passes), through the server's gate (`hashing.rs`): it
/// takes tens of milliseconds on purpose.
async fn hash_password(hub: &Hub, password: String) -> Result<String, ApiError> {
    let mut salt = [0u8; 16];
    token::fill_random(&mut salt);
    hub.hashing()
        .run(move || {
            let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
            Argon2::default()
                .hash_password(password.as_bytes(), &salt)
                .map(|h| h.to_string())
                .map_err(|e| e.to_string())
        })
        .await?
        .map_err(|e| {
            tracing::error!("hashing a password: {e}");
            refuse(
                ErrorCode::Unavailable,
                "could not hash the password; try again",
            )
        })
}

/// Whether `password` matches a stored hash (`None`: no such account; a
/// hash is checked all the same, so that the time taken does not say
/// which names exist), through the server's gate (`hashing.rs`).
async fn verify_password(
    hub: &Hub,
    password: String,
    stored: Option<String>,
) -> Result<bool, ApiError> {
    hub.hashing()
        .run(move || {
            let decoy;
            let phc = match &stored {
                Some(s) => s.as_str(),
                None => {
                    decoy = decoy_hash();
                    decoy.as_str()
                }
            };
            let ok = PasswordHash::new(phc).is_ok_and(|h| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &h)
                    .is_ok()
            });
            ok && stored.is_some()
        })
        .await
}

/// A hash of no one's password, made once, for sign-ins to unknown names.
fn decoy_hash() -> String {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY
        .get_or_init(|| {
            let mut salt = [0u8; 16];
            token::fill_random(&mut salt);
            SaltString::encode_b64(&salt)
                .ok()
                .and_then(|s| {
                    Argon2::default()
                        .hash_password(token::random_hex::<16>().as_bytes(), &s)
                        .ok()
                        .map(|h| h.to_string())
                })
                .unwrap_or_default()
        })
        .clone()
}

/// The session token in a request's cookies.
fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.trim().to_string())
}

/// The signed-in player of a request, if any.
pub(crate) async fn signed_in(hub: &Hub, headers: &HeaderMap) -> Result<Option<Account>, ApiError> {
    let Some(t) = session_token(headers) else {
        return Ok(None);
    };
    hub.store()
        .session_account(&token::hash_token(&t), crate::hub::now_ms())
        .await
        .map_err(store_down)
}

/// Notes that `account` was seen at the request's address (signing in,
/// signing up, creating or taking a seat): accounts seen at one address
/// share its daily allowance of rated games against each other
/// (docs/server.md, "Rated games"). A store failure is logged, not
/// answered: the request goes on.
pub(crate) async fn seen_at(
    hub: &Hub,
    account: &Account,
    client: Option<Extension<crate::guard::Client>>,
) {
    let Some(Extension(crate::guard::Client(key))) = client else {
        return;
    };
    let address = crate::store::CreatorKey::of(key);
    if let Err(e) = hub
        .store()
        .saw_account(account.id, &address, crate::hub::now_ms())
        .await
    {
        tracing::warn!(
            "store: the address of account {} not noted: {e}",
            account.id
        );
    }
}

/// The signed-in player, or a refusal saying to sign in.
async fn required(hub: &Hub, headers: &HeaderMap) -> Result<Account, ApiError> {
    signed_in(hub, headers).await?.ok_or_else(|| {
        refuse(
            ErrorCode::SignInRequired,
            "sign in first (POST /api/sessions)",
        )
    })
}

/// The client a request's sign-in tries count against: the guard's
/// (a trusted proxy's client), else the peer's address.
fn client_key(
    client: Option<Extension<crate::guard::Client>>,
    info: Option<Extension<ConnectInfo<SocketAddr>>>,
) -> crate::guard::ClientKey {
    client.map_or_else(|| crate::guard::ClientKey::of(peer(info)), |c| c.0 .0)
}

fn peer(info: Option<Extension<ConnectInfo<SocketAddr>>>) -> IpAddr {
    info.map_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED), |c| c.0 .0.ip())
}

/// The `Set-Cookie` of a session (`None`: the cookie's removal).
fn cookie(token: Option<&str>, secure: bool) -> Result<HeaderValue, ApiError> {
    let (value, age) = match token {
        Some(t) => (t, SESSION_MS / 1000),
        None => ("", 0),
    };
    let text = format!(
        "{COOKIE}={value}; HttpOnly; SameSite=Lax; Path=/; Max-Age={age}{}",
        if secure { "; Secure" } else { "" }
    );
    HeaderValue::from_str(&text).map_err(|_| {
        refuse(
            ErrorCode::BadRequest,
            "the session cookie cannot be written",
        )
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

async fn create_account(
    State(hub): State<Arc<Hub>>,
    client: Option<Extension<crate::guard::Client>>,
    bytes: Bytes,
) -> ApiResult<Response> {
    let c: Credentials = body(&bytes)?;
    check_name(&c.name).map_err(|m| refuse(ErrorCode::BadName, m))?;
    check_password(&c.password).map_err(|m| refuse(ErrorCode::BadName, m))?;
    let hash = hash_password(&hub, c.password).await?;
    let account = hub
        .store()
        .create_account(&c.name, &hash, crate::hub::now_ms())
        .await
        .map_err(store_down)?
        .ok_or_else(|| {
            refuse(
                ErrorCode::NameTaken,
                format!("the name {:?} is taken; choose another", c.name),
            )
        })?;
    seen_at(&hub, &account, client).await;
    Ok((
        StatusCode::CREATED,
        Json(json!({"name": account.name, "profile": profile_path(&account.name)})),
    )
        .into_response())
}

async fn sign_in(
    State(hub): State<Arc<Hub>>,
    info: Option<Extension<ConnectInfo<SocketAddr>>>,
    client: Option<Extension<crate::guard::Client>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult<Response> {
    let c: Credentials = body(&bytes)?;
    // The address's allowance was drawn by the guard's middleware; the
    // name's is drawn here, so that a name is not guessed from many
    // addresses either.
    if let Err(r) = hub.guard().check_name(&c.name, client_key(client, info)) {
        return Ok(r.into_response());
    }
    let found = hub
        .store()
        .account_by_name(&c.name)
        .await
        .map_err(store_down)?;
    let (account, stored) = match found {
        Some((a, h)) => (Some(a), Some(h)),
        None => (None, None),
    };
    let ok =
        check_password(&c.password).is_ok() && verify_password(&hub, c.password, stored).await?;
    let Some(account) = account.filter(|_| ok) else {
        return Err(refuse(
            ErrorCode::BadCredentials,
            "that name and password do not sign in",
        ));
    };
    let (t, hash) = token::new_token();
    let now = crate::hub::now_ms();
    hub.store()
        .create_session(&hash, account.id, now, now.saturating_add(SESSION_MS))
        .await
        .map_err(store_down)?;
    seen_at(&hub, &account, client).await;
    let secure = hub.guard().forwarded_https(peer(info), &headers);
    let mut response = Json(json!({"name": account.name})).into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie(Some(&t), secure)?);
    Ok(response)
}

async fn sign_out(
    State(hub): State<Arc<Hub>>,
    info: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    if let Some(t) = session_token(&headers) {
        hub.store()
            .delete_session(&token::hash_token(&t))
            .await
            .map_err(store_down)?;
    }
    let secure = hub.guard().forwarded_https(peer(info), &headers);
    let mut response = Json(json!({"signed_in": false})).into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie(None, secure)?);
    Ok(response)
}

/// A password change: the current password (proof that whoever holds the
/// session knows it) and the new one.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordChange {
    current: String,
    new: String,
}

/// `POST /api/me/password`: checks the current password (counted against
/// the name's sign-in allowance, as a sign-in is), sets the new one and
/// signs out every other session of the account; this one stays.
async fn change_password(
    State(hub): State<Arc<Hub>>,
    client: Option<Extension<crate::guard::Client>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult<Response> {
    let account = required(&hub, &headers).await?;
    let c: PasswordChange = body(&bytes)?;
    check_password(&c.new).map_err(|m| refuse(ErrorCode::BadName, format!("new: {m}")))?;
    // A stolen cookie must not let its thief guess the password quickly
    // and lock the owner out.
    if let Err(r) = hub
        .guard()
        .check_name(&account.name, client_key(client, None))
    {
        return Ok(r.into_response());
    }
    let stored = hub
        .store()
        .account_by_name(&account.name)
        .await
        .map_err(store_down)?
        .map(|(_, h)| h);
    if !(check_password(&c.current).is_ok() && verify_password(&hub, c.current, stored).await?) {
        return Err(refuse(
            ErrorCode::BadCredentials,
            "current is not this account's password: give the one you sign in with",
        ));
    }
    let hash = hash_password(&hub, c.new).await?;
    // `required` found the session, so its cookie is there.
    let keep = session_token(&headers).map(|t| token::hash_token(&t));
    let keep = keep.ok_or_else(|| refuse(ErrorCode::SignInRequired, "sign in first"))?;
    let ended = hub
        .store()
        .set_password(account.id, &hash, &keep)
        .await
        .map_err(store_down)?;
    Ok(Json(json!({"name": account.name, "signed_out": ended})).into_response())
}

/// `DELETE /api/me/sessions`: ends every session of the signed-in
/// account, this one included (a lost phone, a shared computer), and
/// removes this cookie.
async fn sign_out_everywhere(
    State(hub): State<Arc<Hub>>,
    info: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let account = required(&hub, &headers).await?;
    let ended = hub
        .store()
        .delete_sessions(account.id)
        .await
        .map_err(store_down)?;
    let secure = hub.guard().forwarded_https(peer(info), &headers);
    let mut response = Json(json!({"signed_in": false, "signed_out": ended})).into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie(None, secure)?);
    Ok(response)
}

async fn session(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> ApiResult<Response> {
    Ok(Json(match signed_in(&hub, &headers).await? {
        Some(a) => json!({"signed_in": true, "name": a.name, "profile": profile_path(&a.name)}),
        None => json!({"signed_in": false, "name": null}),
    })
    .into_response())
}

fn profile_path(name: &str) -> String {
    format!("/api/players/{name}")
}

/// A seat of a player's, for listings, with links to the game's record
/// and replay.
fn seat_json(s: &SeatOf, your_turn: Option<bool>) -> Value {
    let id = s.game.as_str();
    let mut v = json!({
        "game": id,
        "seat": s.seat,
        "status": s.status.as_str(),
        "created": s.created_ms,
        "rated": s.rated,
        "record": format!("/api/games/{id}/record"),
        "replay": format!("/replay/{id}"),
        "play": format!("/play/{id}"),
    });
    if let Some(o) = v.as_object_mut() {
        if let Some(p) = s.place {
            o.insert("place".into(), p.into());
            o.insert("won".into(), (p == 1).into());
        }
        if let Some((before, after)) = s.change {
            o.insert(
                "rating".into(),
                json!({"before": before, "after": after, "change": after - before}),
            );
        }
        if let Some(t) = your_turn {
            o.insert("your_turn".into(), t.into());
        }
    }
    v
}

async fn my_games(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> ApiResult<Response> {
    let account = required(&hub, &headers).await?;
    let seats = hub
        .store()
        .seats_of(account.id, false, LISTED)
        .await
        .map_err(store_down)?;
    let mut games = Vec::with_capacity(seats.len());
    for s in seats {
        let turn = hub.to_act(&s.game).await == Some(usize::from(s.seat));
        games.push((turn, seat_json(&s, Some(turn))));
    }
    // "Your turn" first; the order stays newest first otherwise.
    games.sort_by_key(|(turn, _)| !turn);
    Ok(
        Json(json!({"name": account.name, "games": games.into_iter().map(|(_, g)| g).collect::<Vec<_>>()}))
            .into_response(),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Claim {
    game: String,
    token: String,
}

async fn claim(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult<Response> {
    let account = required(&hub, &headers).await?;
    let c: Claim = body(&bytes)?;
    let handle = crate::api::game(&hub, &c.game).await?;
    let seat = hub.claim_seat(&handle, &c.token, account.clone()).await?;
    Ok(Json(json!({"game": c.game, "seat": seat, "player": account.name})).into_response())
}

fn standing_json(s: &crate::store::players::Standing) -> Value {
    json!({
        "rating": s.glicko.rating,
        "deviation": s.glicko.deviation,
        "volatility": s.glicko.volatility,
        "games": s.games,
        "wins": s.wins,
        // Deviation above 110: too few games yet to say (lichess's "?").
        "provisional": crate::rating::is_provisional(&s.glicko),
    })
}

async fn profile(State(hub): State<Arc<Hub>>, Path(name): Path<String>) -> ApiResult<Response> {
    let not_found = || refuse(ErrorCode::NotFound, format!("no player is named {name:?}"));
    if check_name(&name).is_err() {
        return Err(not_found());
    }
    let (account, _) = hub
        .store()
        .account_by_name(&name)
        .await
        .map_err(store_down)?
        .ok_or_else(not_found)?;
    let store = hub.store();
    let standings = store.standings(account.id).await.map_err(store_down)?;
    let recent = store
        .seats_of(account.id, true, LISTED)
        .await
        .map_err(store_down)?;
    let mut ratings = serde_json::Map::new();
    for (class, s) in &standings {
        ratings.insert(class.as_str().into(), standing_json(s));
    }
    let history = store
        .rating_history(account.id, CHARTED)
        .await
        .map_err(store_down)?;
    let games: i64 = standings.iter().map(|(_, s)| s.games).sum();
    let wins: i64 = standings.iter().map(|(_, s)| s.wins).sum();
    Ok(Json(json!({
        "name": account.name,
        "ratings": ratings,
        "games": games,
        "wins": wins,
        "recent": recent.iter().map(|s| seat_json(s, None)).collect::<Vec<_>>(),
        "history": history.iter().map(point_json).collect::<Vec<_>>(),
    }))
    .into_response())
}

fn point_json(p: &RatingPoint) -> Value {
    json!({
        "game": p.game.as_str(),
        "class": p.class.as_str(),
        "before": p.before,
        "after": p.after,
        "deviation": p.deviation,
        "at": p.at_ms,
    })
}

#[derive(Deserialize)]
struct BoardQuery {
    class: Option<String>,
}

async fn leaderboard(
    State(hub): State<Arc<Hub>>,
    axum::extract::Query(q): axum::extract::Query<BoardQuery>,
) -> ApiResult<Response> {
    let class = match q.class.as_deref() {
        None => Class::Duel,
        Some(c) => Class::parse(c)
            .ok_or_else(|| refuse(ErrorCode::BadRequest, "class is duel or multi"))?,
    };
    let rows = hub
        .store()
        .leaderboard(class, 100)
        .await
        .map_err(store_down)?;
    Ok(Json(json!({
        "class": class.as_str(),
        "players": rows
            .iter()
            .map(|r| {
                let mut v = standing_json(&r.standing);
                if let Some(o) = v.as_object_mut() {
                    o.insert("name".into(), r.name.clone().into());
                }
                v
            })
            .collect::<Vec<_>>(),
    }))
    .into_response())
}
