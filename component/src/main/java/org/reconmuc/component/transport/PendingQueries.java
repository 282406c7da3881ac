package org.reconmuc.component.transport;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.dom4j.Element;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.component.ComponentException;
import org.xmpp.component.IQResultListener;
import org.xmpp.packet.IQ;

/**
 * The IQs the component sent through {@code ComponentManager.query} and still waits for: each
 * gets its result or error (matched by id and by the address it was sent to) or a timeout.
 * Thread-safe; the timer thread is made on first use and stopped by {@link #cancelAll()}.
 */
final class PendingQueries {
    private static final Logger log = LoggerFactory.getLogger(PendingQueries.class);

    private final ConcurrentHashMap<String, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private ScheduledExecutorService timer;   // guarded by pending
    private boolean closed;                    // guarded by pending

    private static final class Pending {
        final String expectedFrom;
        final IQResultListener listener;
        volatile ScheduledFuture<?> timeout;

        Pending(String expectedFrom, IQResultListener listener) {
            this.expectedFrom = expectedFrom;
            this.listener = listener;
        }
    }

    /**
     * Registers a get/set IQ before it is sent (giving it an id if it has none) and arms its
     * timeout; returns its id.
     */
    String register(IQ packet, IQResultListener listener, long timeoutMillis) throws ComponentException {
        String type = packet.getElement().attributeValue("type");
        if (!"get".equals(type) && !"set".equals(type)) {
            throw new ComponentException("only IQs of type get or set can be queries");
        }
        String id = packet.getID();
        if (id == null || id.isEmpty()) {
            id = "reconmuc-q" + ids.incrementAndGet();
            packet.setID(id);
        }
        Pending q = new Pending(packet.getElement().attributeValue("to"), listener);
        final String queryId = id;
        synchronized (pending) {
            if (closed) {
                throw new ComponentException("closed");
            }
            if (pending.putIfAbsent(id, q) != null) {
                throw new ComponentException("a query with id " + id + " is already waiting for its answer");
            }
            if (timer == null) {
                ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
                    Thread thread = new Thread(r, "reconmuc-component-query-timer");
                    thread.setDaemon(true);
                    return thread;
                });
                t.setRemoveOnCancelPolicy(true);
                timer = t;
            }
            q.timeout = timer.schedule(() -> {
                if (pending.remove(queryId, q)) {
                    notifyTimeout(q, queryId);
                }
            }, timeoutMillis, TimeUnit.MILLISECONDS);
        }
        return id;
    }

    /** Forgets a query without telling its listener (it was not sent, or its waiter gave up). */
    void cancel(String id) {
        Pending q = pending.remove(id);
        if (q != null && q.timeout != null) {
            q.timeout.cancel(false);
        }
    }

    /** Times out every waiting query and refuses new ones (the connection is closed). */
    void cancelAll() {
        synchronized (pending) {
            closed = true;
            for (String id : List.copyOf(pending.keySet())) {
                Pending q = pending.remove(id);
                if (q != null) {
                    if (q.timeout != null) {
                        q.timeout.cancel(false);
                    }
                    notifyTimeout(q, id);
                }
            }
            if (timer != null) {
                timer.shutdownNow();
            }
        }
    }

    /**
     * Hands a received IQ result/error to the query waiting for it; false if no query waits for
     * it (then it is an ordinary stanza for the component).
     */
    boolean deliver(Element iq, IQ packet) {
        String type = iq.attributeValue("type");
        String id = iq.attributeValue("id");
        if (id == null || !("result".equals(type) || "error".equals(type)) || pending.isEmpty()) {
            return false;
        }
        Pending q = pending.get(id);
        if (q == null) {
            return false;
        }
        if (q.expectedFrom != null && !q.expectedFrom.equalsIgnoreCase(iq.attributeValue("from"))) {
            return false;   // not the answer: same id from someone else
        }
        if (!pending.remove(id, q)) {
            return false;
        }
        if (q.timeout != null) {
            q.timeout.cancel(false);
        }
        try {
            q.listener.receivedAnswer(packet);
        } catch (RuntimeException e) {
            log.error("IQResultListener.receivedAnswer failed", e);
        }
        return true;
    }

    private static void notifyTimeout(Pending q, String id) {
        try {
            q.listener.answerTimeout(id);
        } catch (RuntimeException e) {
            log.error("IQResultListener.answerTimeout failed", e);
        }
    }
}
