package org.reconmuc.servers;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * An authenticated XEP-0114 stream to a server's component port, for tests that speak as a
 * component themselves: raw stanzas out, raw XML in.
 */
public final class ComponentStream implements AutoCloseable {
    private final Socket socket;

    private ComponentStream(Socket socket) {
        this.socket = socket;
    }

    /** Connects as {@code domain} with {@code secret}; throws if the server refuses the handshake. */
    public static ComponentStream open(String host, int port, String domain, String secret, Duration timeout)
            throws IOException {
        Socket socket = StreamProbe.open(host, port, timeout);
        try {
            StreamProbe.send(socket, StreamProbe.componentOpen(domain));
            String id = StreamProbe.streamId(StreamProbe.readHeader(socket));
            if (id == null) {
                throw new IOException("no stream id from the server");
            }
            StreamProbe.send(socket, "<handshake>" + StreamProbe.sha1Hex(id + secret) + "</handshake>");
            String answer = StreamProbe.readUntil(socket, s -> s.contains("handshake") || s.contains("stream:error"));
            if (!StreamProbe.handshakeSucceeded(answer)) {
                throw new IOException("handshake refused: " + answer);
            }
            return new ComponentStream(socket);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    public void send(String xml) throws IOException {
        StreamProbe.send(socket, xml);
    }

    /** Reads until what arrived since the previous read satisfies {@code done}; returns it. */
    public String readUntil(Predicate<String> done) throws IOException {
        return StreamProbe.readUntil(socket, done);
    }

    @Override
    public void close() throws IOException {
        StreamProbe.closeStream(socket);
        socket.close();
    }
}
