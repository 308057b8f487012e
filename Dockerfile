# Bastide's server as a container image (docs/deploy.md, "A container").
# Three stages: the browser client, the binary (which embeds the client),
# and a small Debian runtime that runs it as a user of its own.
#
#   docker build -t bastide .
#   docker run -p 8080:8080 -v bastide-data:/var/lib/bastide bastide

# 1. The browser client: web/dist, embedded by crates/server/build.rs.
FROM node:22-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

# 2. The binary, `bastide`, built against the lock file.
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
COPY --from=web /src/web/dist web/dist
RUN cargo build --release --locked -p bastide-cli \
    && install -m 755 target/release/bastide /usr/local/bin/bastide

# 3. The runtime: no compiler, no Node.js, a user without a shell.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /var/lib/bastide --create-home \
       --shell /usr/sbin/nologin bastide
COPY --from=build /usr/local/bin/bastide /usr/local/bin/bastide
USER bastide
WORKDIR /var/lib/bastide
# The SQLite file (and its WAL) lives here: keep it on a volume.
VOLUME /var/lib/bastide
EXPOSE 8080
# Listening on every address inside the container: the port is published
# by `docker run -p`, and the proxy in front holds TLS (docs/deploy.md).
ENTRYPOINT ["/usr/local/bin/bastide", "serve", "--addr", "0.0.0.0:8080", "--database", "/var/lib/bastide/games.db"]
