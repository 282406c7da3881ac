package org.reconmuc.component.relaxed;

import java.time.Instant;
import java.util.Collection;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.transport.RenderedStanza;

/**
 * What relaxed consistency needs from its room: who is in, the room's log and clock, a timer,
 * and where stanzas go. The service's room is one; a benchmark's stand-in is another.
 *
 * @param <O> the room's occupant type
 */
public interface FanoutHost<O extends Recipient<O>> {
    /** The room's bare JID. */
    String roomJid();

    Instant now();

    MessageLog<O> log();

    /** Mints the ids of the room's own messages (forwarded batches). */
    StanzaIds ids();

    RelaxedCounters counters();

    /** The occupant with exactly this nick, or null. */
    O occupantByNick(String nick);

    /** The occupant a {@code nick:} prefix addresses (reconmuc.md §5.5), or null. */
    O occupantAddressedAs(String nick);

    /** Every occupant, in join order. */
    Collection<O> occupants();

    /** True while {@code occupant} is in the room. */
    boolean isPresent(O occupant);

    /** Calls {@link Fanout#onTimer()} on the room's thread after {@code delayMillis}. */
    void wakeUpAfter(long delayMillis);

    /**
     * Whether {@code occupant}'s live copies carry the room's XEP-0359 stanza-id; when not, they
     * go without it (the log, batches, history and archive keep it).
     */
    default boolean sendsStanzaIdTo(O occupant) {
        return true;
    }

    /** Sends a stanza rendered once to every session of {@code occupant}. */
    void send(O occupant, RenderedStanza stanza);

    /** Sends a stanza rendered once to every session of each of {@code occupants}, as one broadcast. */
    default void send(Collection<O> occupants, RenderedStanza stanza) {
        for (O o : occupants) {
            send(o, stanza);
        }
    }

    /** Sends a stanza to one session. */
    void send(RealJid session, RenderedStanza stanza);
}
