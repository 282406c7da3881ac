# syntax=docker/dockerfile:1
# ReConMUC component image. It is only the component: run it beside an XMPP server whose
# XEP-0114 component port it can reach, e.g.
#   docker build -t reconmuc .
#   docker run --rm -e RECONMUC_SERVER_HOST=xmpp.example.org -e RECONMUC_SERVER_PORT=5347 \
#     -e RECONMUC_DOMAIN=muc.example.org -e RECONMUC_SECRET=... reconmuc
# (for a server on the Docker host itself: --network host and RECONMUC_SERVER_HOST=127.0.0.1).
# Every setting is an environment variable RECONMUC_<KEY> (see: docker run --rm reconmuc --help);
# flags given after the image name override them.

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# The Maven repository is a build cache, not part of any image layer.
RUN --mount=type=cache,target=/root/.m2 mvn -B -q -DskipTests -pl component -am package

FROM eclipse-temurin:17-jre
RUN groupadd --system reconmuc \
 && useradd --system --gid reconmuc --home-dir /app --no-create-home --shell /usr/sbin/nologin reconmuc
WORKDIR /app
COPY --from=build /src/component/target/reconmuc-component.jar /app/reconmuc-component.jar
# The main settings with the component's defaults, to show what can be set; all others are in
# --help. RECONMUC_SECRET is deliberately not set here: pass it at run time
# (-e RECONMUC_SECRET=... or --env-file); without it the component refuses to start (exit code 2).
ENV RECONMUC_SERVER_HOST=127.0.0.1 \
    RECONMUC_SERVER_PORT=5347 \
    RECONMUC_DOMAIN=reconmuc.localhost \
    RECONMUC_HISTORY_SIZE=100 \
    RECONMUC_STORE=sqlite:/var/lib/reconmuc/rooms.db \
    RECONMUC_LOG_LEVEL=INFO
# Persistent rooms and their archives (mount a volume here to keep them).
RUN mkdir -p /var/lib/reconmuc && chown reconmuc:reconmuc /var/lib/reconmuc
VOLUME /var/lib/reconmuc
USER reconmuc
ENTRYPOINT ["java","-jar","/app/reconmuc-component.jar"]
