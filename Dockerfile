# syntax=docker/dockerfile:1
# ReConMUC component image. It is only the component: run it beside an XMPP server whose
# XEP-0114 component port it can reach, e.g.
#   docker build -t reconmuc .
#   docker run --rm -e RECONMUC_SERVER_HOST=xmpp.example.org -e RECONMUC_SERVER_PORT=5347 \
#     -e RECONMUC_DOMAIN=muc.example.org -e RECONMUC_SECRET=... -v reconmuc-data:/var/lib/reconmuc reconmuc
# (for a server on the Docker host itself: --network host and RECONMUC_SERVER_HOST=127.0.0.1).
# Every setting is an environment variable RECONMUC_<KEY> (see: docker run --rm reconmuc --help);
# flags given after the image name override them. Podman reads the same file (podman build -t reconmuc .).
#
# Build arguments (the defaults are the public images; any image with the same tools will do):
#   BUILD_IMAGE    a JDK 17 with Maven, for building the jar           (maven:3.9-eclipse-temurin-17)
#   RUNTIME_IMAGE  a JRE 17 with bash, groupadd and useradd            (eclipse-temurin:17-jre)
#   JAR            built: the jar is built from the sources here, with Maven in BUILD_IMAGE;
#                  given: the one `mvn package` already built in component/target/ is taken as it
#                  is, e.g. the jar a CI run has just tested (BUILD_IMAGE then needs only a shell:
#                  give it RUNTIME_IMAGE's value to pull nothing more):
#                  mvn -B package && docker build --build-arg JAR=given -t reconmuc .
# (One stage for both, chosen by a shell `if`: buildah before 1.29, Debian 12's, skips a stage
# named by an ARG's default value, so a `FROM ${JAR}` choice would fail there.)
ARG BUILD_IMAGE=maven:3.9-eclipse-temurin-17
ARG RUNTIME_IMAGE=eclipse-temurin:17-jre

FROM ${BUILD_IMAGE} AS jar
ARG JAR=built
WORKDIR /src
COPY . .
# The Maven repository is a build cache, not part of any image layer.
RUN --mount=type=cache,target=/root/.m2 \
    if [ "$JAR" = built ]; then \
      mvn -B -q -DskipTests -pl component -am package; \
    elif [ "$JAR" != given ]; then \
      echo "JAR must be built or given, not '$JAR'" >&2; exit 1; \
    elif [ ! -f component/target/reconmuc-component.jar ]; then \
      echo "JAR=given, but the build context has no component/target/reconmuc-component.jar: run mvn -B package first" >&2; exit 1; \
    fi \
 && cp component/target/reconmuc-component.jar /reconmuc-component.jar

FROM ${RUNTIME_IMAGE}
# A fixed uid, so that a host directory mounted as the store can be given to it (chown 10001).
RUN groupadd --gid 10001 reconmuc \
 && useradd --uid 10001 --gid reconmuc --home-dir /app --no-create-home --shell /usr/sbin/nologin reconmuc \
 && mkdir -p /app /var/lib/reconmuc && chown reconmuc:reconmuc /var/lib/reconmuc
WORKDIR /app
COPY --from=jar /reconmuc-component.jar /app/reconmuc-component.jar
# Healthy while attached to the server; needs RECONMUC_METRICS_PORT (deploy/image/healthcheck).
COPY deploy/image/healthcheck /app/healthcheck
# The main settings with the component's defaults, to show what can be set; all others are in
# --help. RECONMUC_SECRET is deliberately not set here: pass it at run time
# (-e RECONMUC_SECRET=..., --env-file, or RECONMUC_SECRET_FILE naming a mounted file); without it
# the component refuses to start (exit code 2).
ENV RECONMUC_SERVER_HOST=127.0.0.1 \
    RECONMUC_SERVER_PORT=5347 \
    RECONMUC_DOMAIN=reconmuc.localhost \
    RECONMUC_HISTORY_SIZE=100 \
    RECONMUC_STORE=sqlite:/var/lib/reconmuc/rooms.db \
    RECONMUC_LOG_LEVEL=INFO
# Persistent rooms and their archives (mount a volume here to keep them).
VOLUME /var/lib/reconmuc
USER reconmuc
ENTRYPOINT ["java","-jar","/app/reconmuc-component.jar"]
