# Conform in a container (docs/ci.md): Debian 12, a build stage, then a slim
# runtime stage with the `conform` program, specs/ and docs/.
#
#   docker build -t conform .
#   docker run --rm conform run --seed 1                     # against the built-in reference
#   docker run --rm -v "$PWD:/work" -w /work -e CONFORM_TENANT_ALL \
#     conform run --profile ci/sandbox.yaml --junit conform.xml --json conform.json
#
# The program finds its description (/opt/conform/specs/voice-api.yaml) from
# any directory; a --profile, --spec or report path is read from /work, the
# directory mounted above.

FROM debian:12 AS build
WORKDIR /opt/conform
# The packages first, in a layer of their own: a source change does not redo them.
COPY scripts/deps.sh scripts/deps.sh
RUN bash scripts/deps.sh program && rm -rf /var/lib/apt/lists/*
COPY . .
# The `program` preset: optimised, no tests, no benchmarks.
RUN bash scripts/build.sh program conform && strip build-program/conform

FROM debian:12-slim AS runtime
# The shared libraries `conform` links (ldd), and the CAs for https:// targets.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      libboost-json1.81.0 libboost-context1.81.0 libyaml-cpp0.7 libcpp-httplib0.11 libssl3 libpcre2-8-0 ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /opt/conform/build-program/conform /usr/local/bin/conform
# Where the build put them: the program's default description is /opt/conform/specs.
COPY --from=build /opt/conform/specs /opt/conform/specs
COPY --from=build /opt/conform/docs /opt/conform/docs
WORKDIR /work
ENTRYPOINT ["conform"]
CMD ["--help"]
