package org.reconmuc.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void thePortsAreDistinctBelowTheEphemeralRangeAndBindable() throws Exception {
        int[] ports = FreePorts.onLoopback(20);
        assertThat(Arrays.stream(ports).distinct().count()).isEqualTo(20);
        int ephemeral = FreePorts.ephemeralStart();
        assertThat(Arrays.stream(ports).boxed()).allSatisfy(p -> assertThat(p).isBetween(10_000, ephemeral - 1));
        for (int port : ports) {
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            }
        }
    }
}
