package org.reconmuc.component.muc;

import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.codec.XmlNamespaces;
import org.xmpp.packet.IQ;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;
import org.xmpp.packet.PacketError;
import org.xmpp.packet.Presence;

/**
 * Error replies (RFC 6120 §8.3). Built by hand rather than with Tinder's enum because that enum
 * lacks {@code policy-violation}. Every error carries a human-readable text.
 */
public final class StanzaErrors {

    /** RFC 6120 defined conditions this service uses, with their usual type. */
    public enum Condition {
        BAD_REQUEST("bad-request", "modify"),
        CONFLICT("conflict", "cancel"),
        FEATURE_NOT_IMPLEMENTED("feature-not-implemented", "cancel"),
        FORBIDDEN("forbidden", "auth"),
        ITEM_NOT_FOUND("item-not-found", "cancel"),
        JID_MALFORMED("jid-malformed", "modify"),
        NOT_ACCEPTABLE("not-acceptable", "modify"),
        NOT_ALLOWED("not-allowed", "cancel"),
        NOT_AUTHORIZED("not-authorized", "auth"),
        POLICY_VIOLATION("policy-violation", "wait"),
        REGISTRATION_REQUIRED("registration-required", "auth"),
        RESOURCE_CONSTRAINT("resource-constraint", "wait"),
        SERVICE_UNAVAILABLE("service-unavailable", "cancel"),
        INTERNAL_SERVER_ERROR("internal-server-error", "cancel");

        final String element;
        final String defaultType;

        Condition(String element, String defaultType) {
            this.element = element;
            this.defaultType = defaultType;
        }

        public String element() {
            return element;
        }
    }

    private StanzaErrors() {
    }

    /** True if the stanza is itself an error, which must never be answered with an error. */
    public static boolean isError(Packet packet) {
        return "error".equals(packet.getElement().attributeValue("type"));
    }

    /**
     * The error reply to {@code request}: same kind and id, addresses swapped, no payload (so a
     * large or hostile stanza is not echoed back). Returns null for an error stanza.
     */
    public static Packet reply(Packet request, Condition condition, String text) {
        return reply(request, condition, condition.defaultType, text);
    }

    public static Packet reply(Packet request, Condition condition, String type, String text) {
        if (isError(request)) {
            return null;
        }
        Packet reply;
        if (request instanceof IQ) {
            reply = new IQ(IQ.Type.error, request.getID());
        } else if (request instanceof Presence) {
            Presence p = new Presence(Presence.Type.error);
            p.setID(request.getID());
            reply = p;
        } else {
            Message m = new Message();
            m.setType(Message.Type.error);
            m.setID(request.getID());
            reply = m;
        }
        reply.setFrom(request.getTo());
        reply.setTo(request.getFrom());
        reply.getElement().add(errorElement(condition, type, text));
        return reply;
    }

    public static Element errorElement(Condition condition, String type, String text) {
        Element error = DocumentHelper.createElement("error");
        error.addAttribute("type", type);
        error.add(DocumentHelper.createElement(QName.get(condition.element, XmlNamespaces.STANZAS)));
        if (text != null) {
            Element t = DocumentHelper.createElement(QName.get("text", XmlNamespaces.STANZAS));
            t.addAttribute(QName.get("lang", "xml", "http://www.w3.org/XML/1998/namespace"), "en");
            t.setText(text);
            error.add(t);
        }
        return error;
    }

    /** The defined condition of an error stanza, or null. */
    public static String conditionOf(Packet errorStanza) {
        PacketError error = errorStanza.getError();
        if (error == null) {
            return null;
        }
        for (Object o : error.getElement().elements()) {
            Element e = (Element) o;
            if (XmlNamespaces.STANZAS.equals(e.getNamespaceURI()) && !"text".equals(e.getName())) {
                return e.getName();
            }
        }
        return null;
    }
}
