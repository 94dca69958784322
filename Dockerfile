# Conform in a container (docs/ci.md): Debian 12, a build stage that makes
# the Debian package (scripts/package.sh), then a slim runtime stage that
# installs it with apt, so the package's Depends are the one list of the
# libraries the program needs, for the image and for every other install.
#
#   docker build -t conform .
#   docker run --rm conform run --seed 1                     # against the built-in reference
#   docker run --rm -v "$PWD:/work" -w /work -e CONFORM_TENANT_ALL \
#     conform run --profile ci/sandbox.yaml --junit conform.xml --json conform.json
#
# The program finds its description (/usr/share/conform/specs/voice-api.yaml)
# from any directory; a --profile, --spec or report path is read from /work,
# the directory mounted above.

FROM debian:12 AS build
WORKDIR /opt/conform
# The packages first, in a layer of their own: a source change does not redo them.
COPY scripts/deps.sh scripts/deps.sh
RUN bash scripts/deps.sh package && rm -rf /var/lib/apt/lists/*
COPY . .
# The `program` preset (optimised, no tests, no benchmarks), CPack's DEB
# generator, lintian: build-program/package/conform_<version>_amd64.deb.
RUN bash scripts/package.sh

FROM debian:12-slim AS runtime
# debian:12-slim leaves out /usr/share/doc and man pages when installing
# (/etc/dpkg/dpkg.cfg.d/docker); keep Conform's docs, as the image always had.
RUN echo 'path-include=/usr/share/doc/conform/*' >/etc/dpkg/dpkg.cfg.d/zz-conform-docs
COPY --from=build /opt/conform/build-program/package/conform_*.deb /tmp/conform/
# apt resolves the package's Depends (the shared libraries `conform` links,
# and the CAs for https:// targets).
RUN apt-get update \
 && apt-get install -y --no-install-recommends /tmp/conform/conform_*.deb \
 && rm -rf /var/lib/apt/lists/* /tmp/conform
WORKDIR /work
ENTRYPOINT ["conform"]
CMD ["--help"]
