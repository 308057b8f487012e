//! What keeps one client from degrading everyone else's games: who a
//! client is (its address, read through a trusted proxy only), rate limits
//! per address on what costs the server (creating games, joining,
//! connecting, messages, requests), and caps on connections per address
//! and in all (docs/server.md, "Limits").
//!
//! Addresses are counted as IPv4 addresses and IPv6 /64 networks: one
//! IPv6 subscriber is usually given a whole /64, so counting single IPv6
//! addresses would let one client be millions.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use ipnet::IpNet;

use crate::protocol::{ErrorCode, ProtocolError};

/// A rate: `per_minute` sustained, `burst` at once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Sustained allowance per minute (0: refuse all).
    pub per_minute: u32,
    /// How many may come at once before the sustained rate applies.
    pub burst: u32,
}

impl Rate {
    /// No limit at all.
    pub const UNLIMITED: Rate = Rate::new(u32::MAX, u32::MAX);

    /// `per_minute` a minute, `burst` at once.
    pub const fn new(per_minute: u32, burst: u32) -> Rate {
        Rate { per_minute, burst }
    }

    fn quota(self) -> Option<Quota> {
        let per_minute = NonZeroU32::new(self.per_minute)?;
        let burst = NonZeroU32::new(self.burst.max(1))?;
        // Replenished one at a time: a minute over the rate, at least a
        // nanosecond.
        let period = Duration::from_secs(60) / per_minute.get();
        Some(Quota::with_period(period.max(Duration::from_nanos(1)))?.allow_burst(burst))
    }
}

/// The limits a server applies to each client address.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Games created (and rematches) per address.
    pub creates: Rate,
    /// Seats joined per address.
    pub joins: Rate,
    /// WebSocket connections opened per address.
    pub connects: Rate,
    /// WebSocket messages per address, over all its connections (each
    /// connection also has its own rate, `Settings::messages_per_second`).
    pub messages: Rate,
    /// HTTP requests of any kind per address (pages, pictures, the API).
    pub requests: Rate,
    /// Sign-in attempts (and accounts created) per address, and sign-in
    /// attempts per account name from all addresses together: a
    /// password is not guessed from many addresses either.
    pub sign_ins: Rate,
    /// Table chat lines per address, over all its connections (each
    /// connection also has its own, smaller allowance: `crate::chat`).
    pub chats: Rate,
    /// Open TCP connections per address (WebSockets included).
    pub connections_per_address: usize,
    /// Open TCP connections in all; past it, new ones are closed at once.
    pub connections: usize,
    /// How long a client may take to send a request's headers, and how
    /// long a kept-alive connection may sit idle between requests.
    pub header_timeout: Duration,
    /// Proxies whose `X-Forwarded-For` is believed: a request from one of
    /// these networks is counted against the address the proxy names.
    pub trust_proxy: Vec<IpNet>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            // A person creates a game every few minutes; a busy club
            // behind one address, a few a minute.
            creates: Rate::new(20, 20),
            joins: Rate::new(60, 30),
            connects: Rate::new(120, 60),
            // A whole game's actions fit in the burst.
            messages: Rate::new(3_000, 300),
            // A page load asks for a few dozen pictures at once.
            requests: Rate::new(3_000, 300),
            // A person mistypes a few times; a guesser wants thousands.
            sign_ins: Rate::new(10, 10),
            // People talk a line every few seconds; a flood is refused.
            chats: Rate::new(30, 10),
            // Six HTTP connections per browser, a WebSocket per tab, a
            // handful of people behind one address.
            connections_per_address: 64,
            connections: 4_096,
            header_timeout: Duration::from_secs(10),
            trust_proxy: Vec::new(),
        }
    }
}

impl Limits {
    /// No rate limits and room for every connection the process can
    /// hold: for benchmarks and tests that play many games from one
    /// address.
    pub fn unlimited() -> Limits {
        let all = Rate::UNLIMITED;
        Limits {
            creates: all,
            joins: all,
            connects: all,
            messages: all,
            requests: all,
            sign_ins: all,
            chats: all,
            connections_per_address: usize::MAX,
            connections: usize::MAX,
            ..Limits::default()
        }
    }
}

/// A client as the limits count it: an IPv4 address or an IPv6 /64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey(IpAddr);

impl ClientKey {
    /// The key of an address.
    pub fn of(ip: IpAddr) -> ClientKey {
        match ip {
            IpAddr::V4(v4) => ClientKey(IpAddr::V4(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => ClientKey(IpAddr::V4(v4)),
                None => {
                    let s = v6.segments();
                    ClientKey(IpAddr::V6(Ipv6Addr::new(
                        s[0], s[1], s[2], s[3], 0, 0, 0, 0,
                    )))
                }
            },
        }
    }
}

impl ClientKey {
    /// The network the client is in, as text: its IPv4 /24 or IPv6 /48.
    /// Many addresses of one network (a /48 holds 65,536 /64s) are
    /// usually one party: the caps per network bound them together.
    pub fn network(&self) -> String {
        match self.0 {
            IpAddr::V4(a) => {
                let [x, y, z, _] = a.octets();
                format!("{x}.{y}.{z}.0/24")
            }
            IpAddr::V6(a) => {
                let s = a.segments();
                format!("{}/48", Ipv6Addr::new(s[0], s[1], s[2], 0, 0, 0, 0, 0))
            }
        }
    }
}

impl std::fmt::Display for ClientKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            IpAddr::V4(a) => write!(f, "{a}"),
            IpAddr::V6(a) => write!(f, "{a}/64"),
        }
    }
}

/// The client a request comes from, as the guard decided (the direct
/// peer, or the address a trusted proxy names). Handlers read it as an
/// extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client(pub ClientKey);

/// What a rate limit is about, for its bucket and its message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Creating a game or a rematch.
    Create,
    /// Joining a seat.
    Join,
    /// Opening a WebSocket.
    Connect,
    /// A WebSocket message.
    Message,
    /// Any HTTP request.
    Request,
    /// Signing in or creating an account.
    SignIn,
    /// A line of table chat.
    Chat,
}

impl Action {
    fn what(self) -> &'static str {
        match self {
            Action::Create => "games created",
            Action::Join => "seats joined",
            Action::Connect => "connections opened",
            Action::Message => "messages",
            Action::Request => "requests",
            Action::SignIn => "sign-in attempts",
            Action::Chat => "chat lines",
        }
    }
}

/// A refusal for the rate: when to try again.
#[derive(Debug)]
pub struct Refused {
    /// What was refused.
    pub action: Action,
    /// The sustained rate.
    pub rate: Rate,
    /// The earliest the next one is allowed.
    pub retry_after: Duration,
}

impl Refused {
    /// Whole seconds for `Retry-After` (at least 1).
    pub fn retry_secs(&self) -> u64 {
        self.retry_after.as_secs() + u64::from(self.retry_after.subsec_nanos() > 0)
    }

    /// The protocol's error.
    pub fn error(&self) -> ProtocolError {
        let message = if self.rate.per_minute == 0 {
            format!("{} are not allowed from your address", self.action.what())
        } else {
            format!(
                "too many {} from your address{}: at most {} a minute; try again in {} s",
                self.action.what(),
                if self.action == Action::SignIn {
                    " or for this name"
                } else {
                    ""
                },
                self.rate.per_minute,
                self.retry_secs()
            )
        };
        ProtocolError::new(ErrorCode::RateLimited, message)
    }
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let mut response =
            (StatusCode::TOO_MANY_REQUESTS, Json(self.error().to_json())).into_response();
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(self.retry_secs()));
        response
    }
}

/// How a bucket answers.
enum Limiter {
    /// Rate 0: nothing is allowed.
    Refuse,
    /// [`Rate::UNLIMITED`]: everything is, with no bookkeeping.
    Allow,
    /// A token bucket per client.
    Keyed(DefaultKeyedRateLimiter<ClientKey>),
}

struct Bucket {
    rate: Rate,
    limiter: Limiter,
}

impl Bucket {
    fn new(rate: Rate) -> Bucket {
        let limiter = if rate == Rate::UNLIMITED {
            Limiter::Allow
        } else {
            rate.quota()
                .map_or(Limiter::Refuse, |q| Limiter::Keyed(RateLimiter::keyed(q)))
        };
        Bucket { rate, limiter }
    }
}

/// Counts of what the guard refused, for operators.
#[derive(Default, Debug)]
pub struct Refusals {
    /// Requests and messages refused for a rate.
    pub rate: AtomicU64,
    /// Connections closed at once for a cap.
    pub connections: AtomicU64,
}

/// The guard's state: one bucket per kind of action, the open connections
/// per address.
pub struct Guard {
    limits: Limits,
    buckets: [Bucket; 7],
    /// Sign-in attempts per account name (lower case).
    names: Option<DefaultKeyedRateLimiter<(String, ClientKey)>>,
    names_rate: Rate,
    connections: Mutex<HashMap<ClientKey, usize>>,
    open: AtomicUsize,
    /// Addresses an operator blocked, until when.
    blocked: Mutex<HashMap<ClientKey, Instant>>,
    /// What was refused since start.
    pub refusals: Refusals,
}

impl Guard {
    /// A guard applying `limits`.
    pub fn new(limits: Limits) -> Arc<Guard> {
        Arc::new(Guard {
            buckets: [
                Bucket::new(limits.creates),
                Bucket::new(limits.joins),
                Bucket::new(limits.connects),
                Bucket::new(limits.messages),
                Bucket::new(limits.requests),
                Bucket::new(limits.sign_ins),
                Bucket::new(limits.chats),
            ],
            names: (limits.sign_ins != Rate::UNLIMITED)
                .then(|| limits.sign_ins.quota().map(RateLimiter::keyed))
                .flatten(),
            names_rate: limits.sign_ins,
            limits,
            connections: Mutex::new(HashMap::new()),
            open: AtomicUsize::new(0),
            blocked: Mutex::new(HashMap::new()),
            refusals: Refusals::default(),
        })
    }

    /// The limits applied.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    fn bucket(&self, action: Action) -> &Bucket {
        &self.buckets[match action {
            Action::Create => 0,
            Action::Join => 1,
            Action::Connect => 2,
            Action::Message => 3,
            Action::Request => 4,
            Action::SignIn => 5,
            Action::Chat => 6,
        }]
    }

    /// Takes one `action` from `client`'s allowance, or says when to try
    /// again.
    pub fn check(&self, client: ClientKey, action: Action) -> Result<(), Refused> {
        let bucket = self.bucket(action);
        let refused = |retry_after| {
            self.refusals.rate.fetch_add(1, Ordering::Relaxed);
            Refused {
                action,
                rate: bucket.rate,
                retry_after,
            }
        };
        match &bucket.limiter {
            Limiter::Allow => Ok(()),
            Limiter::Refuse => Err(refused(Duration::from_secs(60))),
            Limiter::Keyed(l) => l.check_key(&client).map_err(|not_until| {
                refused(not_until.wait_time_from(DefaultClock::default().now()))
            }),
        }
    }

    /// Takes one sign-in attempt from the allowance of an account name
    /// (in any case) tried from one client, or says when to try again.
    /// Keyed by both: guesses from one address at a name are bounded, and
    /// they use up that address's tries only, never the name's owner's
    /// (a name's allowance over all addresses let one address, guessing
    /// every 6 s, keep its owner from signing in at all).
    pub fn check_name(&self, name: &str, client: ClientKey) -> Result<(), Refused> {
        let refused = |retry_after| {
            self.refusals.rate.fetch_add(1, Ordering::Relaxed);
            Refused {
                action: Action::SignIn,
                rate: self.names_rate,
                retry_after,
            }
        };
        match &self.names {
            None if self.names_rate == Rate::UNLIMITED => Ok(()),
            None => Err(refused(Duration::from_secs(60))),
            Some(l) => l
                .check_key(&(name.to_lowercase(), client))
                .map_err(|not_until| {
                    refused(not_until.wait_time_from(DefaultClock::default().now()))
                }),
        }
    }

    /// Whether a request came over TLS: only a trusted proxy
    /// ([`Limits::trust_proxy`]) terminates TLS for this server, and says
    /// so with `X-Forwarded-Proto: https`; anyone else's header is a claim.
    pub fn forwarded_https(&self, peer: IpAddr, headers: &HeaderMap) -> bool {
        self.limits.trust_proxy.iter().any(|n| n.contains(&peer))
            && headers
                .get("x-forwarded-proto")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(',').next_back())
                .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"))
    }

    /// Forgets the addresses whose allowance is full again: the buckets'
    /// memory follows the clients of the last minutes, not all since start.
    pub fn forget_idle(&self) {
        for b in &self.buckets {
            if let Limiter::Keyed(l) = &b.limiter {
                l.retain_recent();
                l.shrink_to_fit();
            }
        }
        if let Some(l) = &self.names {
            l.retain_recent();
            l.shrink_to_fit();
        }
    }

    /// The client behind a connection from `peer`: the peer itself, or,
    /// from a trusted proxy, the last address in `X-Forwarded-For` that is
    /// not itself a trusted proxy.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> ClientKey {
        let trusted = |ip: &IpAddr| self.limits.trust_proxy.iter().any(|n| n.contains(ip));
        if !trusted(&peer) {
            return ClientKey::of(peer);
        }
        let named = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect::<Vec<_>>();
        // The proxy appends what it saw; earlier entries are the client's
        // own claims. Read from the right, past our own proxies.
        for entry in named.iter().rev() {
            match entry.parse::<IpAddr>() {
                Ok(ip) if trusted(&ip) => continue,
                Ok(ip) => return ClientKey::of(ip),
                // Garbage from the right: nothing further left can be believed.
                Err(_) => break,
            }
        }
        ClientKey::of(peer)
    }

    /// Takes a connection slot for `peer`, or `None` past a cap. A trusted
    /// proxy carries many clients: only the total cap applies to it.
    pub fn connection(self: &Arc<Guard>, peer: IpAddr) -> Option<Arc<Slot>> {
        let refuse = || {
            self.refusals.connections.fetch_add(1, Ordering::Relaxed);
            None
        };
        if self.open.fetch_add(1, Ordering::AcqRel) >= self.limits.connections {
            self.open.fetch_sub(1, Ordering::AcqRel);
            return refuse();
        }
        let key = if self.limits.trust_proxy.iter().any(|n| n.contains(&peer)) {
            None
        } else {
            Some(ClientKey::of(peer))
        };
        if let Some(k) = key {
            let mut map = self.connections.lock().unwrap_or_else(|e| e.into_inner());
            let n = map.entry(k).or_insert(0);
            if *n >= self.limits.connections_per_address {
                drop(map);
                self.open.fetch_sub(1, Ordering::AcqRel);
                return refuse();
            }
            *n += 1;
        }
        Some(Arc::new(Slot {
            guard: self.clone(),
            key,
        }))
    }

    /// Blocks `client` for `how_long` (zero: unblocks it).
    pub fn block(&self, client: ClientKey, how_long: Duration) {
        let mut blocked = self.blocked.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        blocked.retain(|_, until| *until > now);
        if how_long.is_zero() {
            blocked.remove(&client);
        } else {
            blocked.insert(client, now + how_long);
        }
    }

    /// Whether an operator blocked `client`.
    pub fn is_blocked(&self, client: ClientKey) -> bool {
        let blocked = self.blocked.lock().unwrap_or_else(|e| e.into_inner());
        blocked
            .get(&client)
            .is_some_and(|until| *until > Instant::now())
    }

    /// Open connections in all.
    pub fn open_connections(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }
}

/// A connection's place among the open ones, given back when the last
/// holder (the connection, or the WebSocket it became) drops it.
pub struct Slot {
    guard: Arc<Guard>,
    key: Option<ClientKey>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(k) = self.key {
            let mut map = self
                .guard
                .connections
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if let Some(n) = map.get_mut(&k) {
                *n -= 1;
                if *n == 0 {
                    map.remove(&k);
                }
            }
        }
        self.guard.open.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Which bucket a request draws from besides the general one.
fn classify(method: &Method, path: &str) -> Option<Action> {
    if method == Method::POST && matches!(path, "/api/sessions" | "/api/accounts") {
        return Some(Action::SignIn);
    }
    let api = path.strip_prefix("/api/games")?;
    match (method, api) {
        (&Method::POST, "" | "/") => Some(Action::Create),
        (&Method::POST, p) if p.ends_with("/rematch") => Some(Action::Create),
        (&Method::POST, p) if p.ends_with("/join") || p.ends_with("/sit") => Some(Action::Join),
        (&Method::GET, p) if p.ends_with("/ws") => Some(Action::Connect),
        _ => None,
    }
}

/// The middleware: names the client, draws from its allowances, and
/// answers 429 with `Retry-After` past them.
pub async fn middleware(State(guard): State<Arc<Guard>>, mut req: Request, next: Next) -> Response {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
        .unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED));
    let client = guard.client(peer, req.headers());
    if guard.is_blocked(client) {
        let e = ProtocolError::new(ErrorCode::Blocked, "your address is blocked on this server");
        return (StatusCode::FORBIDDEN, Json(e.to_json())).into_response();
    }
    if let Err(r) = guard.check(client, Action::Request) {
        return r.into_response();
    }
    if let Some(action) = classify(req.method(), req.uri().path()) {
        if let Err(r) = guard.check(client, action) {
            return r.into_response();
        }
    }
    req.extensions_mut().insert(Client(client));
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn ipv6_counts_by_64_and_mapped_v4_as_v4() {
        assert_eq!(
            ClientKey::of(ip("2001:db8:1:2:aaaa::1")),
            ClientKey::of(ip("2001:db8:1:2:bbbb::9"))
        );
        assert_ne!(
            ClientKey::of(ip("2001:db8:1:2::1")),
            ClientKey::of(ip("2001:db8:1:3::1"))
        );
        assert_eq!(
            ClientKey::of(ip("::ffff:10.0.0.1")),
            ClientKey::of(ip("10.0.0.1"))
        );
        assert_eq!(
            ClientKey::of(ip("2001:db8:1:2::1")).to_string(),
            "2001:db8:1:2::/64"
        );
    }

    #[test]
    fn forwarded_for_is_read_only_from_a_trusted_proxy() {
        let guard = Guard::new(Limits {
            trust_proxy: vec!["10.0.0.0/8".parse().unwrap()],
            ..Limits::default()
        });
        let mut headers = HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            "6.6.6.6, 1.2.3.4, 10.1.1.1".parse().unwrap(),
        );
        // From the proxy: the last address not a proxy's (6.6.6.6 is the
        // client's own claim, not believed).
        assert_eq!(
            guard.client(ip("10.0.0.5"), &headers),
            ClientKey::of(ip("1.2.3.4"))
        );
        // From anyone else: the peer.
        assert_eq!(
            guard.client(ip("8.8.8.8"), &headers),
            ClientKey::of(ip("8.8.8.8"))
        );
        // A trusted proxy without the header: itself.
        assert_eq!(
            guard.client(ip("10.0.0.5"), &HeaderMap::new()),
            ClientKey::of(ip("10.0.0.5"))
        );
    }

    #[test]
    fn a_burst_then_refusals_with_a_retry_time() {
        let guard = Guard::new(Limits {
            creates: Rate::new(6, 3),
            ..Limits::default()
        });
        let a = ClientKey::of(ip("1.1.1.1"));
        let b = ClientKey::of(ip("2.2.2.2"));
        for _ in 0..3 {
            assert!(guard.check(a, Action::Create).is_ok());
        }
        let refused = guard.check(a, Action::Create).unwrap_err();
        // One every ten seconds.
        assert!(
            refused.retry_secs() >= 9 && refused.retry_secs() <= 10,
            "{refused:?}"
        );
        assert_eq!(refused.error().code, ErrorCode::RateLimited);
        // Another address has its own allowance.
        assert!(guard.check(b, Action::Create).is_ok());
        assert_eq!(guard.refusals.rate.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn connection_caps_per_address_and_in_all() {
        let guard = Guard::new(Limits {
            connections_per_address: 2,
            connections: 3,
            ..Limits::default()
        });
        let a1 = guard.connection(ip("1.1.1.1")).unwrap();
        let _a2 = guard.connection(ip("1.1.1.1")).unwrap();
        assert!(guard.connection(ip("1.1.1.1")).is_none());
        let _b = guard.connection(ip("2.2.2.2")).unwrap();
        // The total is reached.
        assert!(guard.connection(ip("3.3.3.3")).is_none());
        drop(a1);
        assert_eq!(guard.open_connections(), 2);
        assert!(guard.connection(ip("1.1.1.1")).is_some());
    }

    #[test]
    fn requests_are_classified() {
        assert_eq!(classify(&Method::POST, "/api/games"), Some(Action::Create));
        assert_eq!(
            classify(&Method::POST, "/api/games/x/rematch"),
            Some(Action::Create)
        );
        assert_eq!(
            classify(&Method::POST, "/api/games/x/join"),
            Some(Action::Join)
        );
        assert_eq!(
            classify(&Method::GET, "/api/games/x/ws"),
            Some(Action::Connect)
        );
        assert_eq!(classify(&Method::GET, "/api/games"), None);
        assert_eq!(classify(&Method::GET, "/play/x"), None);
    }

    #[test]
    fn a_zero_rate_refuses_all() {
        let guard = Guard::new(Limits {
            joins: Rate::new(0, 0),
            ..Limits::default()
        });
        let r = guard
            .check(ClientKey::of(ip("1.1.1.1")), Action::Join)
            .unwrap_err();
        assert!(
            r.error().message.contains("not allowed"),
            "{}",
            r.error().message
        );
    }
}
