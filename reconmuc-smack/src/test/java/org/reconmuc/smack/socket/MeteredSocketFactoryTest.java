package org.reconmuc.smack.socket;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Over loopback, on one thread: the server's end is accepted after the client connected. */
class MeteredSocketFactoryTest {
    private static final byte[] STANZA = "<message><body>hi</body></message>".getBytes(StandardCharsets.UTF_8);

    /** {@code bytes} sent by the server's end of a socket from {@code factory}, read as Smack does, then the end. */
    private static byte[] readThrough(MeteredSocketFactory factory, byte[] bytes, boolean oneByOne) throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket server = new ServerSocket(0, 1, loopback);
             Socket client = factory.createSocket(loopback, server.getLocalPort());
             Socket serverEnd = server.accept()) {
            assertThat(client.getTcpNoDelay()).isTrue();
            serverEnd.getOutputStream().write(bytes);
            serverEnd.shutdownOutput();
            InputStream in = client.getInputStream();
            assertThat(in).isInstanceOf(MeteredSocketFactory.MeteredInputStream.class);
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            if (oneByOne) {
                for (int b = in.read(); b >= 0; b = in.read()) {
                    got.write(b);
                }
            } else {
                byte[] buf = new byte[7];
                for (int n = in.read(buf, 0, buf.length); n >= 0; n = in.read(buf, 0, buf.length)) {
                    got.write(buf, 0, n);
                }
            }
            return got.toByteArray();
        }
    }

    @Test
    void aCountingSocketCountsEveryByteItReadsHoweverItIsRead() throws Exception {
        AtomicLong received = new AtomicLong();
        MeteredSocketFactory factory = MeteredSocketFactory.counting(received);
        assertThat(readThrough(factory, STANZA, false)).isEqualTo(STANZA);
        assertThat(received.get()).isEqualTo(STANZA.length);
        assertThat(readThrough(factory, STANZA, true)).isEqualTo(STANZA);
        assertThat(received.get()).as("both sockets, into one counter").isEqualTo(2L * STANZA.length);
    }

    @Test
    void eachSocketHasAMeterOfItsOwnThatSeesTheBytesThemselves() throws Exception {
        List<ByteArrayOutputStream> seen = new ArrayList<>();
        MeteredSocketFactory factory = new MeteredSocketFactory(() -> {
            ByteArrayOutputStream mine = new ByteArrayOutputStream();
            seen.add(mine);
            return mine::write;
        });
        byte[] other = "<presence/>".getBytes(StandardCharsets.UTF_8);
        readThrough(factory, STANZA, false);
        readThrough(factory, other, true);
        assertThat(seen).hasSize(2);
        assertThat(seen.get(0).toByteArray()).isEqualTo(STANZA);
        assertThat(seen.get(1).toByteArray()).isEqualTo(other);
    }
}
