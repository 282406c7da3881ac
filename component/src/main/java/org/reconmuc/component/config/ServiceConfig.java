package org.reconmuc.component.config;

import java.time.Duration;
import java.util.Objects;

/**
 * Everything the service needs to run, already validated. Built by {@link ConfigLoader} from
 * defaults, a properties file, environment variables and command-line flags (in rising order).
 */
public record ServiceConfig(
        String serverHost,
        int serverPort,
        String domain,
        String secret,
        int historySize,
        int maxStanzaBytes,
        double messagesPerSecond,
        int messageBurst,
        int maxOccupantsPerRoom,
        int maxFilterEntries,
        int maxTimeSeconds,
        Duration keepaliveInterval,
        Duration reconnectMaxBackoff) {

    public ServiceConfig {
        Objects.requireNonNull(serverHost, "server-host");
        Objects.requireNonNull(domain, "domain");
        Objects.requireNonNull(secret, "secret");
        require(serverPort > 0 && serverPort < 65536, "server-port must be in 1..65535");
        require(!domain.isBlank(), "domain must not be empty");
        require(historySize >= 0, "history-size must be >= 0");
        require(maxStanzaBytes >= 1024, "max-stanza-bytes must be >= 1024");
        require(messagesPerSecond > 0, "rate-messages-per-second must be > 0");
        require(messageBurst >= 1, "rate-burst must be >= 1");
        require(maxOccupantsPerRoom >= 1, "max-occupants must be >= 1");
        require(maxFilterEntries >= 0, "max-filter-entries must be >= 0");
        require(maxTimeSeconds >= 1, "max-time-seconds must be >= 1");
        require(!keepaliveInterval.isNegative() && !keepaliveInterval.isZero(), "keepalive-seconds must be > 0");
        require(!reconnectMaxBackoff.isNegative() && !reconnectMaxBackoff.isZero(), "reconnect-max-seconds must be > 0");
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /** Defaults matching the verified local Prosody set-up (shared/servers). */
    public static ServiceConfig defaults() {
        return new ServiceConfig("127.0.0.1", 5347, "reconmuc.localhost", "s3cret",
                100, 256 * 1024, 10.0, 20, 10_000, 32, 86_400,
                Duration.ofSeconds(30), Duration.ofSeconds(30));
    }

    public ServiceConfig withServer(String host, int port) {
        return new ServiceConfig(host, port, domain, secret, historySize, maxStanzaBytes, messagesPerSecond,
                messageBurst, maxOccupantsPerRoom, maxFilterEntries, maxTimeSeconds, keepaliveInterval, reconnectMaxBackoff);
    }

    public ServiceConfig withHistorySize(int newHistorySize) {
        return new ServiceConfig(serverHost, serverPort, domain, secret, newHistorySize, maxStanzaBytes, messagesPerSecond,
                messageBurst, maxOccupantsPerRoom, maxFilterEntries, maxTimeSeconds, keepaliveInterval, reconnectMaxBackoff);
    }

    /** The relaxed-consistency limits a service advertises (reconmuc.md, Discovery). */
    public ServiceConfig withConsistencyLimits(int newMaxFilterEntries, int newMaxTimeSeconds) {
        return new ServiceConfig(serverHost, serverPort, domain, secret, historySize, maxStanzaBytes, messagesPerSecond,
                messageBurst, maxOccupantsPerRoom, newMaxFilterEntries, newMaxTimeSeconds, keepaliveInterval,
                reconnectMaxBackoff);
    }

    public ServiceConfig withDomainAndSecret(String newDomain, String newSecret) {
        return new ServiceConfig(serverHost, serverPort, newDomain, newSecret, historySize, maxStanzaBytes,
                messagesPerSecond, messageBurst, maxOccupantsPerRoom, maxFilterEntries, maxTimeSeconds, keepaliveInterval, reconnectMaxBackoff);
    }

    @Override
    public String toString() {
        // Never log the secret.
        return "ServiceConfig[server=" + serverHost + ":" + serverPort + ", domain=" + domain
                + ", history-size=" + historySize + ", max-stanza-bytes=" + maxStanzaBytes
                + ", rate=" + messagesPerSecond + "/s burst " + messageBurst
                + ", max-occupants=" + maxOccupantsPerRoom + ", max-filter-entries=" + maxFilterEntries + ", max-time=" + maxTimeSeconds + "s"
                + ", keepalive=" + keepaliveInterval.toSeconds()
                + "s, reconnect-max=" + reconnectMaxBackoff.toSeconds() + "s]";
    }
}
