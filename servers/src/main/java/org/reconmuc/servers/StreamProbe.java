package org.reconmuc.servers;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Raw TCP probes of an XMPP server's ports: open a stream and read the server's stream header.
 * A reply proves that the server itself (not just a socket) is answering.
 */
public final class StreamProbe {
    private static final Pattern ID = Pattern.compile("\\sid=['\"]([^'\"]+)['\"]");
    private static final String NS_STREAMS = "http://etherx.jabber.org/streams";

    private StreamProbe() {
    }

    /** The server's stream header (and whatever followed it at once) on a c2s port. */
    public static String clientStreamHeader(String host, int port, String to, Duration timeout) throws IOException {
        try (Socket socket = open(host, port, timeout)) {
            send(socket, "<?xml version='1.0'?><stream:stream to='" + to + "' xmlns='jabber:client'"
                    + " xmlns:stream='" + NS_STREAMS + "' version='1.0'>");
            String header = readHeader(socket);
            closeStream(socket);
            return header;
        }
    }

    /** The server's stream header on a XEP-0114 component port (no handshake is sent). */
    public static String componentStreamHeader(String host, int port, String domain, Duration timeout)
            throws IOException {
        try (Socket socket = open(host, port, timeout)) {
            send(socket, componentOpen(domain));
            String header = readHeader(socket);
            closeStream(socket);
            return header;
        }
    }

    /**
     * Performs a XEP-0114 handshake and returns what the server answered after it: {@code <handshake/>}
     * (or {@code <handshake></handshake>}) on success, a stream error otherwise. The stream is
     * closed at once afterwards.
     */
    public static String componentHandshake(String host, int port, String domain, String secret, Duration timeout)
            throws IOException {
        try (Socket socket = open(host, port, timeout)) {
            send(socket, componentOpen(domain));
            String header = readHeader(socket);
            String id = streamId(header);
            if (id == null) {
                throw new IOException("no stream id in " + header);
            }
            send(socket, "<handshake>" + sha1Hex(id + secret) + "</handshake>");
            String answer = readUntil(socket, s -> s.contains("handshake") || s.contains("</stream:stream>")
                    || s.contains("stream:error"));
            closeStream(socket);
            return answer;
        }
    }

    /** True when the answer of {@link #componentHandshake} is a successful handshake. */
    public static boolean handshakeSucceeded(String answer) {
        return answer.matches("(?s)\\s*<handshake\\s*(/>|>\\s*</handshake>).*");
    }

    /** The {@code id} attribute of a stream header, or null. */
    public static String streamId(String header) {
        int end = header.indexOf('>', header.indexOf("<stream:stream"));
        String open = end < 0 ? header : header.substring(0, end + 1);
        Matcher m = ID.matcher(open);
        return m.find() ? m.group(1) : null;
    }

    static String componentOpen(String domain) {
        return "<stream:stream xmlns='jabber:component:accept' xmlns:stream='" + NS_STREAMS + "' to='" + domain + "'>";
    }

    static Socket open(String host, int port, Duration timeout) throws IOException {
        Socket socket = new Socket();
        try {
            int millis = (int) Math.max(1, timeout.toMillis());
            socket.connect(new InetSocketAddress(host, port), millis);
            socket.setSoTimeout(millis);
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    static void send(Socket socket, String xml) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(xml.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    static void closeStream(Socket socket) {
        try {
            send(socket, "</stream:stream>");
        } catch (IOException ignored) {
            // the server may already have closed it
        }
    }

    /** Reads until the opening {@code <stream:stream ...>} tag is complete. */
    static String readHeader(Socket socket) throws IOException {
        String data = readUntil(socket, s -> {
            int start = s.indexOf("<stream:stream");
            return start >= 0 && s.indexOf('>', start) > 0;
        });
        if (!data.contains("<stream:stream")) {
            throw new IOException("no stream header, got: " + data);
        }
        return data;
    }

    static String readUntil(Socket socket, java.util.function.Predicate<String> done) throws IOException {
        InputStream in = socket.getInputStream();
        StringBuilder got = new StringBuilder();
        byte[] buffer = new byte[8192];
        try {
            while (!done.test(got.toString())) {
                int n = in.read(buffer);
                if (n < 0) {
                    break;
                }
                got.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
            }
        } catch (SocketTimeoutException e) {
            throw new IOException("timed out waiting for the server, got so far: " + got, e);
        }
        if (!done.test(got.toString())) {
            throw new IOException("connection closed by the server, got: " + got);
        }
        return got.toString();
    }

    static String sha1Hex(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
