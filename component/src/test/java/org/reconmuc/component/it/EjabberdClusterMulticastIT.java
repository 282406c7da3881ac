package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.reconmuc.servers.InstancesBehindEjabberd;

/**
 * Three instances behind one ejabberd with {@code mod_multicast} (six buckets, {@code
 * bare_destination}, two connections each): every connection finds the server's multicast, not
 * only the one whose bucket the bare service domain hashes to; and so do the connections a
 * survivor opens when it adopts a killed instance's buckets, and those that take the buckets an
 * instance hands over when it stops.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EjabberdClusterMulticastIT {
    private static final String FOUND = "the server's XEP-0033 multicast at multicast.localhost carries the rooms' broadcasts";
    private static final String NOT_FOUND = "no usable XEP-0033 multicast on the server";
    private InstancesBehindEjabberd<ComponentJvm> cluster;

    @BeforeAll
    void start() throws Exception {
        cluster = ComponentJvm.behindEjabberd("it-ejabberd-cluster-multicast", List.of("a", "b", "c"), "--lease-seconds", "2");
    }

    @AfterAll
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** How many of {@code instance}'s connections logged {@code verdict} so far. */
    private int count(String instance, String verdict) throws Exception {
        Matcher m = Pattern.compile(Pattern.quote(verdict)).matcher(cluster.instance(instance).log());
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    /** Connections of {@code instance} that found the multicast, and those that did not. */
    private String verdicts(String instance) throws Exception {
        return count(instance, FOUND) + " found, " + count(instance, NOT_FOUND) + " not";
    }

    /** Waits until the connections of {@code names} have found the multicast {@code found} times in all. */
    private void awaitFound(List<String> names, int found, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        int seen = 0;
        while (seen < found) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + found
                        + " connections of " + names + " to find the multicast; " + seen + " did; " + verdicts(names));
            }
            Thread.sleep(200);
            seen = 0;
            for (String name : names) {
                seen += count(name, FOUND);
            }
        }
    }

    private String verdicts(List<String> names) throws Exception {
        StringBuilder all = new StringBuilder();
        for (String name : names) {
            all.append(name).append(": ").append(verdicts(name)).append("; ");
        }
        for (String name : names) {
            all.append("\n").append(name).append("'s connections and discoveries:");
            cluster.instance(name).log().lines()
                    .filter(l -> l.contains("multicast") || l.contains("bucket") || l.contains("connection to"))
                    .forEach(l -> all.append("\n  ").append(l));
        }
        return all.toString();
    }

    @Test
    void everyConnectionOfEveryInstanceSendsThroughTheServersMulticastAndSoDoAnAdoptersAndATakersNewOnes() throws Exception {
        // Each instance opens two connections (a hand-over may open more). Discovery answers within
        // milliseconds; a connection whose answers go to another connection gives up after 20 s.
        awaitFound(List.of("a", "b", "c"), 6, Duration.ofSeconds(45));
        for (String name : cluster.instances().keySet()) {
            assertThat(count(name, FOUND)).as("connections of %s that found it", name).isGreaterThanOrEqualTo(2);
            assertThat(count(name, NOT_FOUND)).as("connections of %s that did not", name).isZero();
        }

        // c dies; a survivor adopts its buckets with new connections, which look again.
        int before = count("a", FOUND) + count("b", FOUND);
        cluster.remove("c").kill();
        awaitFound(List.of("a", "b"), before + 2, Duration.ofSeconds(45));
        assertThat(count("a", NOT_FOUND) + count("b", NOT_FOUND)).as("a's and b's connections that did not find it: "
                + verdicts(List.of("a", "b"))).isZero();

        // a stops cleanly and hands each of its buckets over to b, whose new connections look again.
        int handedOver = count("a", FOUND);   // every connection a has had is still open
        int bBefore = count("b", FOUND);
        cluster.remove("a").close();
        awaitFound(List.of("b"), bBefore + handedOver, Duration.ofSeconds(45));
        assertThat(count("b", NOT_FOUND)).as("b's connections that did not find it: " + verdicts(List.of("b"))).isZero();
    }
}
