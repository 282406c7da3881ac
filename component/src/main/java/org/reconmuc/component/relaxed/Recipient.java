package org.reconmuc.component.relaxed;

import java.util.Collection;
import org.reconmuc.component.consistency.Reader;
import org.reconmuc.component.jid.RealJid;

/**
 * An occupant as relaxed consistency sees it: a nick that messages may address, the sessions
 * that receive what it is sent, and its reader in the engine while it is relaxed.
 *
 * @param <O> the occupant type itself (the engine's owner type)
 */
public interface Recipient<O extends Recipient<O>> {
    String nick();

    /** Its sessions, each of which receives what it is sent. */
    Collection<RealJid> sessions();

    /** Its reader in the room's engine, or null while it is in standard mode. */
    Reader<O> reader();

    void setReader(Reader<O> reader);
}
