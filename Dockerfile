# syntax=docker/dockerfile:1
# Build: a static binary (pure-Go SQLite, so no cgo).
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ENV CGO_ENABLED=0
RUN go build -trimpath -ldflags="-s -w" -o /out/tttbot . \
 && mkdir -p /out/data

# Run: no shell, no package manager, CA certificates for Discord's TLS, a
# non-root user, and /data for the SQLite database. No secrets are baked in:
# pass them with --env-file or -e at run time.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/tttbot /usr/local/bin/tttbot
COPY --from=build --chown=65532:65532 /out/data /data
WORKDIR /data
ENV DATABASE_URL=sqlite:///data/tttbot.db \
    HTTP_ADDR=:8080
VOLUME ["/data"]
EXPOSE 8080
USER 65532:65532
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/tttbot", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/tttbot"]
