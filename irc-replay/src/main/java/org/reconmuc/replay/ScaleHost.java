package org.reconmuc.replay;

import java.nio.file.Path;
import java.util.List;
import org.reconmuc.servers.EjabberdCluster;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.servers.XmppServers;

/**
 * Where the room's users connect for a scale run: one server process, or (ejabberd, past what one
 * process holds) several clustered nodes. The component attaches to {@link #attach()}.
 */
interface ScaleHost extends AutoCloseable {
    /**
     * Sessions one server process is given at most: the machine allows 20,000 open files per
     * process (a hard limit), some of which the server needs for itself.
     */
    int MAX_SESSIONS_PER_PROCESS = 19_000;

    /** The client ports, {@code host:port}, one per process. */
    List<String> endpoints();

    /** The server's processes, to sample their CPU and memory. */
    List<Long> pids();

    /** The process the component attaches to, whose domains the room and the logins use. */
    XmppServer attach();

    @Override
    void close();

    /**
     * The host for a room of {@code size} on {@code kind}: Prosody in one process; ejabberd as a
     * cluster (its settings for big rooms and bots, {@link EjabberdCluster}) of as many nodes as hold
     * {@link #MAX_SESSIONS_PER_PROCESS} sessions each — one node up to that size.
     */
    static ScaleHost start(String kind, int size, Path runDir) throws Exception {
        return start(kind, size, runDir, 0, "all");
    }

    /**
     * As {@link #start(String, int, Path)}; for ejabberd, {@code nodes} (0: as many as the size needs)
     * and where the bots connect: {@code all} nodes, the {@code first} (where the component attaches),
     * or the {@code others} — what a room's fan-out costs when its users sit on other nodes.
     */
    static ScaleHost start(String kind, int size, Path runDir, int nodes, String botsOn) throws Exception {
        if (kind.equals("ejabberd")) {
            int count = nodes > 0 ? nodes : Math.max(1, (size + MAX_SESSIONS_PER_PROCESS - 1) / MAX_SESSIONS_PER_PROCESS);
            EjabberdCluster cluster = EjabberdCluster.start(runDir.resolve("ejabberd"), count);
            List<XmppServer> used = switch (botsOn) {
                case "first" -> cluster.nodes().subList(0, 1);
                case "others" -> cluster.nodes().subList(Math.min(1, count - 1), count);
                default -> cluster.nodes();
            };
            return new ScaleHost() {
                @Override
                public List<String> endpoints() {
                    return used.stream().map(n -> n.host() + ":" + n.c2sPort()).toList();
                }

                @Override
                public List<Long> pids() {
                    return cluster.pids();
                }

                @Override
                public XmppServer attach() {
                    return cluster.first();
                }

                @Override
                public void close() {
                    cluster.close();
                }
            };
        }
        XmppServer server = XmppServers.start(kind, runDir.resolve(kind));
        return new ScaleHost() {
            @Override
            public List<String> endpoints() {
                return List.of(server.host() + ":" + server.c2sPort());
            }

            @Override
            public List<Long> pids() {
                return List.of(server.pid());
            }

            @Override
            public XmppServer attach() {
                return server;
            }

            @Override
            public void close() {
                server.close();
            }
        };
    }
}
