package org.reconmuc.replay;

/** The --help text: every command and option. */
final class Help {
    static final String TEXT = """
            irc-replay: real IRC logs, reply detection, and a load harness for ReConMUC

            Usage:
              java -jar irc-replay.jar evaluate [--logs DIR]
              java -jar irc-replay.jar replay [options] SCENARIO...
              java -jar irc-replay.jar paper [--quick] [--out DIR] [--phases LIST] [--forms A/B] [--messages N] [--scenarios LIST] [--with-5000]
              java -jar irc-replay.jar rooms --out DIR [--rooms 40] [--bots-per-room 20] [--instances 3]
                  [--connections 2] [--messages 60] [--rate 1] [--drain 20]
                  [--kill-at SECONDS | --pause-at SECONDS [--pause-seconds 10] | --rolling-restart-at SECONDS]
                  [--relaxed-bots 0 [--relaxed-volume 2] [--relaxed-time 3]]
              java -jar irc-replay.jar soak --out DIR [--minutes 10] [--rooms 16] [--speakers 3] [--listeners 2]
                  [--relaxed-listeners 1] [--big-room 120] [--instances 3] [--connections 2] [--rate 0.5] [--kill-every 10]
                  [--churn-every 2] [--room-churn-every 10] [--drain 30] [--late-wait 60] [--no-hostile]
              java -jar irc-replay.jar scale --server prosody|ejabberd [--sizes 800,2000,...] [--scenarios own,off,relaxed]
                  [--messages 60] [--rate 1] [--time 60] [--join-rate 500] [--out DIR]
              java -jar irc-replay.jar fill --endpoint HOST:PORT --room ROOM [--bots 1000] [--messages 0] ...
              java -jar irc-replay.jar help

            Run from the repository (or its irc-replay/ folder): the servers' configuration templates are
            found in deploy/ above the working directory (or -Dreconmuc.repoRoot=DIR), the logs in
            ../shared/irc-logs (or --logs DIR).

            evaluate
              Parses the six channels (#ubuntu, #linux, #rust, #mediawiki, #stripe, #ubuntu-meeting; three
              line formats), detects replies as the paper's tool did (a message addressed 'nick: ...' or
              'nick, ...' replies to that nick's latest message; case-insensitive; nick changes followed) and
              prints precision and recall per channel against the gold reply links, on the annotated lines.

            replay SCENARIO...
              Starts a real XMPP server on free loopback ports (and, except for 'standard', the ReConMUC
              component in its own JVM), logs one Smack bot in per speaking IRC nick (up to --bots, the rest
              listeners), joins them all to one room, and replays the six channels in parallel into it, each
              channel a topic (<topic xmlns='urn:reconmuc:0'/> and '#channel' in the body), replies as
              XEP-0461 replies to the parent's stanza-id. Each scenario runs on a fresh server, one after the
              other, with the same workload. Every run is bounded (--messages, --duration, --drain) and stops
              by itself; all traffic stays on 127.0.0.1.

              Scenarios:
                standard   the server's own MUC (conference.localhost): the baseline
                standard-mam  the same with the rooms archiving (XEP-0313), so that the server stamps a stanza-id
                           on every message as ReConMUC does (replies then name it): the like-for-like baseline
                off        ReConMUC, no bot states requirements (consistency off)
                relaxed    ReConMUC, every bot states requirements: its topic as its only active filter (the
                           channel it last spoke in; a listener picks one weighted by channel activity), time
                           --time, volume drawn uniformly from [1, 2 x --volume], aggregation --aggregate.
                           A bot that speaks in another channel switches its filter to it first.
                relaxed:volume=30:time=60:aggregate=deflate:draw=fixed
                           a relaxed scenario with its own parameters (any of them; the rest from the flags)

            Options (defaults in brackets):
              --server prosody|ejabberd|openfire  the XMPP server [ejabberd: ~4x Prosody's fan-out on 2 cores];
                                         openfire: Openfire 5.1.1 from ../shared/openfire, bots log in
                                         anonymously, its own MUC's room is configured for every bot
              --bots N                   bots in the room [800]
              --messages N               messages to replay, split evenly over the channels [5400]
              --rate R                   pace to R messages/s across all channels: each channel's real timing
                                         is stretched to span N/R seconds [6]
              --speed S                  instead: real log timing divided by S
              --duration SECONDS         nothing is sent after this [900]
              --join-rate R              joins per second (the paper: 3) [3]
              --volume V                 relaxed: volumes drawn from [1, 2V] [10]
              --volume-draw uniform|fixed  relaxed: each bot draws its volume from [1, 2V], or every bot asks
                                         for V [uniform]
              --time SECONDS             relaxed: time bound [60]
              --aggregate none|plain|deflate  relaxed: how retained messages are flushed [plain]
              --replies detected|gold|none    reply graph: the paper's detection, the gold links (only where
                                         annotated), or none [detected]
              --compression on|off       XEP-0138 zlib stream compression when the server offers it (ejabberd
                                         natively, Prosody with deploy/prosody/plugins/mod_compression.lua) [on]
              --no-compression           same as --compression off
              --drain SECONDS            after the last message, wait at most this long for every bot to have
                                         every message [relaxed: time + 15, else 15]; what comes later is late
              --late-wait SECONDS        after the drain, go on waiting while deliveries still arrive (until
                                         15 s pass without one), at most this long; late deliveries are
                                         counted apart from lost ones, with the lost messages' ids [600]
              --out DIR                  results folder [replay-results/<date-time>]
              --run-dir DIR              server run directories (config, state, logs) [$TMPDIR/irc-replay-run]
              --logs DIR                 the IRC logs [../shared/irc-logs]
              --seed N                   topics of listeners and volumes [1]
              --component process|inprocess  the component in its own JVM (CPU, RSS and heap sampled by PID)
                                         or inside the harness [process]
              --component-heap SIZE      -Xmx/-Xms of the component's JVM [1g]
              --component-option NAME=VALUE  another setting of the component's, as its flag --NAME VALUE
                                         (repeatable), e.g. occupant-ids=false
              --component-store none|sqlite|h2  the component keeps the room (made persistent) and its
                                         messages in a store in the run directory: latency with the store
                                         on vs off [none]
              --link loopback|veth       where the server (and the component) run: on loopback, or in a network
                                         namespace of their own joined to the bots by a veth pair (MTU 1500,
                                         segmentation offloads off), whose packets and bytes the kernel counts:
                                         'wire, real' beside the model (needs root, iproute2, ethtool) [loopback]
              --history-size N           the component's room history [max(200, 2 x largest volume)]
              --login-threads N          parallel logins [4]
              --speaking-bots N          at most N bots speak (the logs' nicks folded onto them), the rest only listen:
                                         background occupants for the radio's real-time runs [every speaker a bot]
              --presence-broadcast ROLES the room's muc#roomconfig_presencebroadcast, set by the first bot's form on
                                         every server (e.g. moderator: nobody sees the bots' presences, as big rooms
                                         are run; spares the N² join presences) [every role]
              --own-muc-presence-broadcast ROLES  the same for the server's own MUC only (standard scenarios), e.g.
                                         moderator: the server's big-room option beside the component's presence
                                         levels in one run [--presence-broadcast]
              --presence-level LEVEL     each bot's join to the component asks for the presences of all, moderators
                                         or none (reconmuc.md §5.17); the fill's time, presences and server CPU are
                                         in summary.json (fill_seconds, presences_received_in_joins,
                                         fill_server_cpu_seconds) [the bots ask for nothing]
              --room-logging on|off      the component's room's muc#roomconfig_enablelogging, set by the first bot's
                                         form (off: it archives nothing and, by default, leaves the stanza-id off
                                         standard occupants' live copies); the servers' own MUCs keep their default
                                         (standard-mam is the logged baseline) [the room's default]
              --visitors-every SECONDS   while the logs are replayed, someone (not a bot: nothing it gets is
                                         counted) enters the room under a new nick every SECONDS (>= 2), stays 1 s
                                         and leaves: churn, which may start relaxed occupants' deflate streams
                                         anew (reconmuc.md §5.9 rule 8.4) [nobody]
              --per-bot-series           also write bots-socket-bytes-per-second.csv (large)
              --no-status                no progress bar / status line
              --concurrent               run the scenarios at the same time, each on its own server (for light,
                                         long runs such as the radio's real-time run; not for CPU or latency)

            paper
              The seed paper's evaluation in one command, each scenario on a fresh server (veth links, both worlds in
              one room: even bots with XEP-0138, odd bots without; every volume fixed; time bound 30 s; occupant ids
              off, as the servers' own MUCs send none): phase bandwidth (ejabberd, 800 bots, 540 messages: standard,
              standard-mam, off, relaxed v10/v30/v60 in the --forms, v30 without aggregation, v30 in the 0.2 and 0.1 forms),
              scale-100/400 (CPU as occupants grow; 800 comes from bandwidth), prosody (Prosody's MUC at 200
              occupants), radio (the logs at their own pace for 30 minutes, standard and relaxed with time bounds 30,
              120 and 300 s side by side: XEP-0286 radio-on time of listeners); --with-5000 adds 5,000 occupants in one room. Writes DIR/README.md (Table 1,
              Table 2, completeness, Figures 3-5, radio) and each phase's folder. --quick: the same at toy size.
              --phases bandwidth,radio runs only those. --messages N: the bandwidth phase replays N messages at 6/s
              (5400: the paper's full 15 minutes). --scenarios standard,relaxed:v=30:a=none,... replaces the bandwidth
              phase's scenarios (each ~17 minutes at 5,400 messages).
              [--out benchmarks/results/<date>, --forms compact-live/compact-deflate-live (world A / world B)]

            rooms
              Many rooms, several instances: the logs replayed into --rooms rooms of --bots-per-room bots (the same
              messages in every room, --rate per room), served by --instances instances x --connections connections
              behind ejabberd (a bucket per connection) with a shared PostgreSQL started for the run. --kill-at S
              kills the instance serving the most rooms (SIGKILL) S seconds in; --pause-at S stops it (SIGSTOP) for
              --pause-seconds and lets it go on (SIGCONT); --rolling-restart-at S stops each instance cleanly in turn
              (its standard input closed), starts it again and waits 5 s before the next; bots told their room moved (110 +
              333) join again with the history since the last message they saw. --relaxed-bots N adds N listeners
              to each room that state requirements (--relaxed-volume messages, --relaxed-time seconds) and never
              speak; what the room retained for them counts as delivered. summary.json: acknowledged
              (echoed) messages and whether each reached every bot of its room exactly once (lost, duplicated,
              out of order among live deliveries), unacknowledged ones bounced (an error came back) or dropped,
              per killed or paused room the seconds from the fault to its next acknowledged message, per room the
              slowest acknowledgement (echo after sending) from the fault on, what the instances logged (adoptions, rooms
              lost to another instance), CPU/RSS/heap per instance, and per instance what crossed its link to
              the server (bytes; stanzas and copies sent through the server's XEP-0033 multicast, and per connection
              of its last process), with link bytes per copy delivered to a bot and how many connections used multicast. Exit code 0 when no acknowledged message was lost, duplicated or out of order.

            soak
              Hours of what a service sees, bounded by --minutes: --instances behind ejabberd on a shared PostgreSQL
              (as rooms) serve --rooms persistent rooms with archives; in each, --speakers replay the IRC logs in a loop
              (--rate messages/s per room) while --listeners standard and --relaxed-listeners relaxed occupants churn
              (one step every --churn-every seconds: leave and come back, drop the connection and come back, new nick,
              new status, new requirements), catching up from the room's archive (XEP-0313) as clients do; one more
              room, the big one, has --big-room listeners (a third of them relaxed; 0: no big room) and the same
              speakers and rate, its occupant list read page by page (XEP-0059) for the ghosts; a room
              is made, spoken in and destroyed every --room-churn-every seconds (0: none). Faults:
              the instance holding most rooms killed (SIGKILL) every --kill-every minutes and started again once a
              survivor adopted it, one rolling restart (at 20 % of the run), the XMPP server restarted (45 %), the
              PostgreSQL restarted (70 %); a hostile client sends XEP-0205's kinds of abuse (oversized and deep
              stanzas, invitation, presence and IQ floods, made-up rooms) within 1 % of the honest stanzas
              (--no-hostile: none). Every minute a line and a row of minutes.jsonl (traffic, at-once p99, messages not
              yet everywhere, unhandled exceptions in the instances' logs, each instance's live heap after GC, RSS,
              file descriptors and threads, ejabberd's RSS; with Prometheus, each queue's high-water mark of the minute:
              mailbox, outgoing, store writes, stanzas held for the store). Then a drain (--drain) and a late wait (--late-wait);
              summary.json and summary.md: acknowledged messages lost, late, duplicated, out of order (a message again
              with the stanza-id it came with is a moved room's at-least-once re-send: the bots drop it, as Dino and
              Joom do, and it is counted apart; twice under another id is a duplicate); archive gaps
              (every acknowledged message once in its room's archive, each speaker's in order); ghosts (each room's
              occupant list against its bots in it); memory slopes from minute 20 (or the middle of a shorter run),
              also per process from its own 20th minute, and the JVMs' native memory accounts since then (nmt-*.txt;
              the instances' heaps are pre-touched, so RSS is what lies outside them); charts (*.png). A real Prometheus (/usr/bin/prometheus, if installed) scrapes every instance's metrics
              every 2 s; at the end its occupants, relaxed occupants, connections and bytes to the server are put beside
              the soak's own (summary.json: prometheus). Exit code 0 when all of those are 0.

            scale
              One room, growing, on one machine, with light bots (non-blocking sessions, several bot processes of at most
              --bots-per-worker [16000] each): for each of --sizes [800,2000,5000,10000,20000,50000,100000], each
              scenario still growing runs on fresh processes — own (the server's own MUC, presences broadcast for
              moderators only, its big-room setting), off (the component, nobody relaxed), relaxed (the component,
              90 % of the listeners relaxed: no filter, --time [60] s, --volume [100], --aggregate [compact]; the
              speakers and every tenth listener live); the component's bots join at --presence-level [none]. Prosody
              runs in one process (the curve ends past 19,000 sessions); ejabberd as a cluster of one node per 19,000
              (EjabberdCluster). Each run: logins, the room made by bot 0, joins at --join-rate per second in all,
              requirements, --messages [60] IRC messages at --rate [1]/s, a drain (relaxed: time + 15 s, else 15 s;
              --drain), then as long as deliveries still come (up to --late-wait [600] s). A scenario stops growing
              at its first size that loses, duplicates or reorders a message, fails a login or join, or whose at-once
              p99 is above --lag-bound-ms [2000] (relaxed: or whose digests' p99 is above the time bound + that).
              Writes DIR/rows.json (every figure of every run), table.md, lag.png and cpu.png (log scales).
              --component-option NAME=VALUE, --component-heap [2g], --history-size [100], --sources (bind addresses);
              ejabberd: --nodes N (a cluster of N nodes whatever the size) and --bots-on all|first|others (the bots on
              every node, on the first — where the component attaches — or on the others: a fan-out across nodes).

            fill
              Fills a room of a running server with light bots and holds them (a crowd for a person's client): logs
              --bots in (SASL PLAIN on --login-domain [insecure.localhost]), bot 0 makes the room, the others join at
              --presence-level [none] (all: none asked), --relaxed-share of the listeners state requirements (time
              --time), prints "filled N", replays --messages at --rate if asked, and holds them until its standard
              input closes or --hold-seconds [3600] pass.

            What it measures (per second, per bot and in total):
              socket bytes      bytes read from each bot's socket (compressed when XEP-0138 is negotiated)
              xml bytes         the XML stream's payload bytes, uncompressed
              zlib model        modelled stream compression: a per-bot zlib stream sync-flushed per stanza
              wire bytes        each of the above + 52 B of TCP/IP header per segment (1448-B segments of a
                                1500-B MTU, at least one per stanza)
              stanzas, deliveries (each message in a batch counts), batches
              latency           send to receipt (same JVM clock; the send time rides in the message id):
                                direct replies at the parent's author, all, immediate, retained deliveries
              completeness      lost, duplicated, out-of-causal-order deliveries (all must be 0)
              schedule lag      how late the harness sent each message (p50/p99/max)
              processes         CPU and RSS of the XMPP server and the component (and the component's heap),
                                sampled from /proc by PID every second; the harness's own CPU, RSS and heap;
                                the bots' memory per connection (heap and RSS growth over the logins and joins)

            Output (in --out): summary.json (parameters, workload, every scenario), comparison.md, charts
            bytes-per-second.png (the paper's Figure 3), wire-bytes-per-second.png, latency-cdf.png, and per
            scenario timeseries.csv, bots.csv, latency-cdf.csv, summary.json.
            Exit code: 0 when nothing was lost, duplicated or out of causal order; 1 otherwise; 2 bad usage.
            """;

    private Help() {
    }
}
