package org.reconmuc.component.transport;

import java.time.Duration;
import org.reconmuc.component.transport.ServerStream.Attempt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the reconnect loop says of an outage, on the reader thread: a lost connection once, the
 * first failure of each kind as a warning and the rest at debug level (a server down for an hour
 * logs a line, not thousands), and on reconnecting how long it took.
 */
final class OutageLog {
    private static final Logger log = LoggerFactory.getLogger(OutageLog.class);

    private final String where;
    private final String domain;
    private final Duration maxBackoff;
    private boolean inOutage;
    private String lastWarnedProblem;
    private int failedAttempts;
    private long outageStartNanos;

    OutageLog(String where, String domain, Duration maxBackoff) {
        this.where = where;
        this.domain = domain;
        this.maxBackoff = maxBackoff;
    }

    /** An attempt ended; the next one starts in {@code delay}. */
    void ended(Attempt attempt, Duration delay) {
        if (attempt.established()) {
            log.warn("component connection to {} lost: {}; reconnecting", where, attempt.problem());
            start(attempt.problemKind());
            return;
        }
        if (!inOutage) {
            start(null);
        }
        failedAttempts++;
        if (!attempt.problemKind().equals(lastWarnedProblem)) {
            lastWarnedProblem = attempt.problemKind();
            log.warn("component connection to {} as {} failed: {}; retrying with backoff (at most {} apart)",
                    where, domain, attempt.problem(), human(maxBackoff));
        } else {
            log.debug("component connection attempt {} to {} failed: {}; next attempt in {} ms",
                    failedAttempts, where, attempt.problem(), delay.toMillis());
        }
    }

    /** A handshake succeeded. */
    void connected() {
        if (inOutage) {
            log.info("component reconnected to {} as {} after {} failed attempts ({})", where, domain,
                    failedAttempts, human(Duration.ofNanos(System.nanoTime() - outageStartNanos)));
        } else {
            log.info("component connected to {} as {}", where, domain);
        }
        inOutage = false;
        lastWarnedProblem = null;
    }

    private void start(String warnedKind) {
        inOutage = true;
        lastWarnedProblem = warnedKind;
        failedAttempts = 0;
        outageStartNanos = System.nanoTime();
    }

    private static String human(Duration d) {
        return d.toMillis() < 1000 ? d.toMillis() + " ms" : d.toSeconds() + " s";
    }
}
