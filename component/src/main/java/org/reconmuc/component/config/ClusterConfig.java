package org.reconmuc.component.config;

import java.time.Duration;
import java.util.Objects;

/**
 * Several instances of the service on one domain (README, "Several instances"): this instance's
 * name, how many component connections it holds (each takes one of the server's buckets, e.g.
 * ejabberd's {@code domain_balancing} with {@code type: bare_destination}), and how long a room
 * lease runs without renewal (an instance whose last renewal is older stops sending for its rooms;
 * a dead instance is told by its lock, not by its lease).
 *
 * @param instance    this instance's name, unique among the instances; null when the service runs alone
 * @param connections component connections this instance holds at start
 * @param lease       how long a room stays this instance's without a heartbeat
 */
public record ClusterConfig(String instance, int connections, Duration lease) {
    public static final ClusterConfig ALONE = new ClusterConfig(null, 1, Duration.ofSeconds(5));

    public ClusterConfig {
        Objects.requireNonNull(lease, "lease-seconds");
        if (connections < 1 || connections > 1000) {
            throw new IllegalArgumentException("connections must be in 1..1000");
        }
        if (lease.toMillis() < 1000) {
            throw new IllegalArgumentException("lease-seconds must be >= 1");
        }
        if (instance != null && (instance.isBlank() || instance.length() > 100 || !instance.matches("[A-Za-z0-9._-]+"))) {
            throw new IllegalArgumentException("instance must be 1-100 letters, digits, '.', '_' or '-', not '" + instance + "'");
        }
    }

    /** True when this is one of several instances (rooms are leased from the shared store). */
    public boolean clustered() {
        return instance != null;
    }
}
