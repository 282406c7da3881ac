package org.reconmuc.replay;

import org.jivesoftware.smack.packet.IQ;
import org.reconmuc.codec.XmlNamespaces;

/** {@code <iq type='set'><consistency-requirements xmlns='urn:reconmuc:0'>…</consistency-requirements></iq>}. */
final class RequirementsIq extends IQ {
    static final String NS = XmlNamespaces.RECONMUC;
    private final String content;

    RequirementsIq(String content) {
        super("consistency-requirements", NS);
        this.content = content;
        setType(Type.set);
    }

    @Override
    protected IQChildElementXmlStringBuilder getIQChildElementBuilder(IQChildElementXmlStringBuilder xml) {
        xml.rightAngleBracket();
        xml.append(content);
        return xml;
    }

    static String topicEntry(String topic, boolean active) {
        return "<filter-entry element='topic' value='" + topic + "'" + (active ? "" : " active='false'") + "/>";
    }

    /** The first request of a bot: its topic, time, volume and aggregation. */
    static RequirementsIq initial(String topic, int time, int volume, String aggregation) {
        return new RequirementsIq("<filter>" + topicEntry(topic, true) + "</filter><time>" + time + "</time><volume>"
                + volume + "</volume><aggregation>" + aggregation + "</aggregation>");
    }

    /** A topic switch: the old topic's entry off, the new one on. */
    static RequirementsIq switchTopic(String from, String to) {
        return new RequirementsIq("<filter>" + topicEntry(from, false) + topicEntry(to, true) + "</filter>");
    }
}

/** The owner's "instant room" form (XEP-0045 §10.1.2), for a native room that reports 201. */
final class InstantRoomIq extends IQ {
    private final String fields;

    InstantRoomIq() {
        this("");
    }

    private InstantRoomIq(String fields) {
        super("query", "http://jabber.org/protocol/muc#owner");
        this.fields = fields;
        setType(Type.set);
    }

    /** The default configuration but {@code muc#roomconfig_maxusers} (0: no limit). */
    static InstantRoomIq withMaxUsers(int maxUsers) {
        return new InstantRoomIq("<field var='FORM_TYPE'><value>http://jabber.org/protocol/muc#roomconfig</value></field>"
                + "<field var='muc#roomconfig_maxusers'><value>" + maxUsers + "</value></field>");
    }

    @Override
    protected IQChildElementXmlStringBuilder getIQChildElementBuilder(IQChildElementXmlStringBuilder xml) {
        xml.rightAngleBracket();
        xml.append(fields.isEmpty() ? "<x xmlns='jabber:x:data' type='submit'/>"
                : "<x xmlns='jabber:x:data' type='submit'>" + fields + "</x>");
        return xml;
    }
}
