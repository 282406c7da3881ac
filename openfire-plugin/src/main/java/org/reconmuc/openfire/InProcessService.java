package org.reconmuc.openfire;

import java.nio.charset.StandardCharsets;
import org.reconmuc.component.muc.MucService;
import org.reconmuc.component.muc.StanzaErrors;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.xmpp.component.Component;
import org.xmpp.component.ComponentException;
import org.xmpp.component.ComponentManager;
import org.xmpp.packet.JID;
import org.xmpp.packet.Packet;

/**
 * What the plugin registers with Openfire: the {@link MucService}, behind the stanza size limit
 * ({@code max-stanza-bytes}) that the XEP-0114 connector enforces on the wire when the service
 * runs outside Openfire. In-process the stanza arrives parsed, so it is measured as XML: a
 * {@code policy-violation} answers a larger one, as on the wire.
 *
 * <p>Openfire calls {@link #processPacket} on the thread that routes the stanza: for a client's
 * stanza, the thread of Openfire's blocking-handler pool that serves that client's connection,
 * so one client's stanzas arrive in order. The service hands each to its room's mailbox in the
 * order of these calls, and when {@code max-pending-stanzas} wait in mailboxes it makes the
 * calling thread wait: the client that sends faster than the rooms keep up is slowed, as by
 * Openfire's own MUC, which does its work on that thread. The room threads never wait for
 * Openfire's (sending is asynchronous there), so the waiting cannot deadlock.
 */
final class InProcessService implements Component {
    private final MucService service;
    private final int maxStanzaBytes;
    private volatile ComponentManager manager;

    InProcessService(MucService service, int maxStanzaBytes) {
        this.service = service;
        this.maxStanzaBytes = maxStanzaBytes;
    }

    @Override
    public String getName() {
        return service.getName();
    }

    @Override
    public String getDescription() {
        return service.getDescription();
    }

    @Override
    public void initialize(JID jid, ComponentManager componentManager) throws ComponentException {
        this.manager = componentManager;
        service.initialize(jid, componentManager);
    }

    @Override
    public void processPacket(Packet packet) {
        if (tooLarge(packet)) {
            Packet error = StanzaErrors.reply(packet, Condition.POLICY_VIOLATION,
                    "Stanza too large: limit is " + maxStanzaBytes + " bytes");
            if (error != null) {
                try {
                    manager.sendPacket(this, error);
                } catch (ComponentException e) {
                    // Nobody to tell.
                }
            }
            return;
        }
        service.processPacket(packet);
    }

    /** UTF-8 size of the stanza's XML; the exact count only for stanzas that might exceed the limit. */
    private boolean tooLarge(Packet packet) {
        String xml = packet.toXML();
        if ((long) xml.length() * 3 <= maxStanzaBytes) {
            return false;
        }
        return xml.length() > maxStanzaBytes || xml.getBytes(StandardCharsets.UTF_8).length > maxStanzaBytes;
    }

    @Override
    public void start() {
        service.start();
    }

    @Override
    public void shutdown() {
        service.shutdown();
    }
}
