package org.reconmuc.replay;

import java.util.List;
import org.jivesoftware.smack.packet.IQ;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.smack.element.Aggregation;
import org.reconmuc.smack.element.ConsistencyRequirements;
import org.reconmuc.smack.element.ConsistencyRequirementsIQ;
import org.reconmuc.smack.element.FilterEntry;

/**
 * A bot's {@code <consistency-requirements/>} set, built with the client library (reconmuc-smack):
 * its first request, and the update of a topic switch.
 */
final class RequirementsIq extends ConsistencyRequirementsIQ {
    static final String NS = XmlNamespaces.RECONMUC;

    private RequirementsIq(ConsistencyRequirements requirements) {
        super(requirements);
        setType(Type.set);
    }

    /** The first request of a bot: its topic, time, volume and aggregation. */
    static RequirementsIq initial(String topic, int time, int volume, String aggregation) {
        return new RequirementsIq(ConsistencyRequirements.builder().addFilterEntry(FilterEntry.topic(topic, true))
                .setTimeSeconds(time).setVolume(volume).setAggregation(Aggregation.fromValue(aggregation)).build());
    }

    /** A topic switch: the old topic's entry off, the new one on. */
    static RequirementsIq switchTopic(String from, String to) {
        return new RequirementsIq(ConsistencyRequirements.builder().addFilterEntry(FilterEntry.topic(from, false))
                .addFilterEntry(FilterEntry.topic(to, true)).build());
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

    /**
     * The default configuration but, where not null, {@code muc#roomconfig_maxusers} (0: no limit),
     * {@code muc#roomconfig_presencebroadcast} (the roles whose presence is broadcast) and
     * {@code muc#roomconfig_enablelogging}.
     */
    static InstantRoomIq with(String maxUsers, List<String> presenceBroadcast, Boolean logging) {
        if (maxUsers == null && presenceBroadcast == null && logging == null) {
            return new InstantRoomIq();
        }
        StringBuilder fields = new StringBuilder("<field var='FORM_TYPE'><value>http://jabber.org/protocol/muc#roomconfig</value></field>");
        if (maxUsers != null) {
            fields.append("<field var='muc#roomconfig_maxusers'><value>").append(maxUsers).append("</value></field>");
        }
        if (presenceBroadcast != null) {
            fields.append("<field var='muc#roomconfig_presencebroadcast'>");
            presenceBroadcast.forEach(r -> fields.append("<value>").append(r).append("</value>"));
            fields.append("</field>");
        }
        if (logging != null) {
            fields.append("<field var='muc#roomconfig_enablelogging'><value>").append(logging ? "1" : "0").append("</value></field>");
        }
        return new InstantRoomIq(fields.toString());
    }

    @Override
    protected IQChildElementXmlStringBuilder getIQChildElementBuilder(IQChildElementXmlStringBuilder xml) {
        xml.rightAngleBracket();
        xml.append(fields.isEmpty() ? "<x xmlns='jabber:x:data' type='submit'/>"
                : "<x xmlns='jabber:x:data' type='submit'>" + fields + "</x>");
        return xml;
    }
}
