package org.reconmuc.benchmarks;

import java.util.Collection;
import java.util.List;
import org.reconmuc.component.consistency.Reader;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.relaxed.Recipient;

/**
 * An occupant of the benchmarks' rooms (the service's own is package-private to its room): a
 * nick, one session, and its reader while relaxed. Kept tiny, and left out of the footprint
 * report, which counts only what the engine adds per occupant.
 */
public final class Occupant implements Recipient<Occupant> {
    final int index;
    final String nick;
    /** The one session the room sends to. */
    final RealJid session;
    private final List<RealJid> sessions;
    private Reader<Occupant> reader;

    Occupant(int index) {
        this.index = index;
        this.nick = "user" + index;
        this.session = RealJid.of("user" + index + "@example.org/laptop");
        this.sessions = List.of(session);
    }

    @Override
    public String nick() {
        return nick;
    }

    @Override
    public Collection<RealJid> sessions() {
        return sessions;
    }

    @Override
    public Reader<Occupant> reader() {
        return reader;
    }

    @Override
    public void setReader(Reader<Occupant> reader) {
        this.reader = reader;
    }

    @Override
    public String toString() {
        return nick;
    }
}
