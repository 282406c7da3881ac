package org.reconmuc.component.transport;

import org.xmpp.packet.Packet;

/**
 * One stanza as it leaves the service for one recipient: its XML text, made once, and handed to
 * the socket unchanged (XEP-0114). Immutable, so it may wait in a room's journal or the outgoing
 * queue without being copied.
 */
public final class OutgoingStanza {
    /** The rendering a broadcast's copies share, or null for a stanza rendered for its own address. */
    private final RenderedStanza rendered;
    private final String name;
    private final String from;
    private final String to;
    private final String xml;
    private final int forbiddenCharacter;

    OutgoingStanza(RenderedStanza rendered, String name, String from, String to, String xml, int forbiddenCharacter) {
        this.rendered = rendered;
        this.name = name;
        this.from = from;
        this.to = to;
        this.xml = xml;
        this.forbiddenCharacter = forbiddenCharacter;
    }

    /** A packet rendered as it is, for the address it names itself ({@code packet.toXML()}). */
    public static OutgoingStanza of(Packet packet) {
        String xml = packet.toXML();
        return new OutgoingStanza(null, packet.getElement().getName(), packet.getElement().attributeValue("from"),
                packet.getElement().attributeValue("to"), xml, StreamXml.firstForbiddenCharacter(xml));
    }

    /** The text sent. */
    public String xml() {
        return xml;
    }

    /** {@code message}, {@code presence} or {@code iq}. */
    public String name() {
        return name;
    }

    public String from() {
        return from;
    }

    /** The recipient, or null. */
    public String to() {
        return to;
    }

    /** The rendering this stanza was addressed from (shared by every recipient of a broadcast), or null. */
    public RenderedStanza rendered() {
        return rendered;
    }

    /** {@link StreamXml#firstForbiddenCharacter} of the text, found when it was rendered. */
    int forbiddenCharacter() {
        return forbiddenCharacter;
    }

    /**
     * The stanza as a Tinder packet of its own, for a server in the same process (Openfire reads
     * the DOM, not the text) and for tests: a broadcast's copy is its rendering's one parse, copied
     * and addressed.
     */
    public Packet toPacket() {
        if (rendered == null) {
            return RenderedStanza.parse(name, xml);
        }
        Packet p = rendered.parsed().createCopy();
        if (to != null) {
            p.setTo(to);
        }
        return p;
    }

    @Override
    public String toString() {
        return xml;
    }
}
