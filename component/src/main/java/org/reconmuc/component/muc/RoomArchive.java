package org.reconmuc.component.muc;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.dom4j.DocumentException;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.protocol.Dom4jText;
import org.reconmuc.component.protocol.ForwardedItems;
import org.reconmuc.component.relaxed.MessageLog;
import org.reconmuc.component.store.ArchiveQuery;
import org.reconmuc.component.store.ArchivedMessage;
import org.reconmuc.component.store.RoomJournal;
import org.reconmuc.component.transport.OutgoingStanza;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.forms.DataForm;
import org.xmpp.forms.FormField;
import org.xmpp.packet.IQ;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;
import org.xmpp.packet.Packet;

/**
 * XEP-0313 Message Archive Management on the room's bare JID ({@code urn:xmpp:mam:2}): the query
 * form's fields ({@code with}, {@code start}, {@code end}), XEP-0059 paging ({@code max},
 * {@code after}, {@code before}, an empty {@code before} for the last page; {@code first},
 * {@code last}, {@code count}, {@code complete}), each result as a {@code <result/>} with the
 * message forwarded (XEP-0297) under its delay, then the {@code <fin/>}. The archive id is the
 * room's stanza-id. A persistent room's archive is read from the store (on the store's reader
 * thread); any other room's is its in-memory log. A room that is not logged
 * ({@code muc#roomconfig_enablelogging} off) has no archive: queries get {@code feature-not-implemented}.
 *
 * <p>Access (XEP-0313 §6.1.2 MUC archives) is the room's one rule ({@link RoomAccess}): whoever
 * may enter the room may read it — not outcasts; only members in a members-only room; only
 * occupants in a password-protected one, since a query carries no password. Real JIDs are
 * shown, and may be searched for with {@code with}, only where the reader could see them in the
 * room: a non-anonymous room, or a moderator.
 */
public final class RoomArchive {
    public static final String NAMESPACE = "urn:xmpp:mam:2";
    public static final String RSM = "http://jabber.org/protocol/rsm";
    static final String FORWARD = "urn:xmpp:forward:0";
    /** The largest page sent for one query, and the page when none is asked for. */
    public static final int MAX_PAGE = 100;
    private static final Logger LOG = LoggerFactory.getLogger(RoomArchive.class);

    /** Thrown while reading a query; becomes the error reply. */
    private static final class Refused extends Exception {
        final Condition condition;

        Refused(Condition condition, String text) {
            super(text, null, false, false);
            this.condition = condition;
        }
    }

    private RoomArchive() {
    }

    /**
     * The oldest message that whoever may enter the room can read in its archive now: none
     * (the next message's number) in a room that keeps no archive; the first in a room whose
     * store keeps them all; the oldest the in-memory log still holds in any other.
     */
    public static long readableFrom(Room room) {
        MessageLog<Occupant> history = room.history();
        if (!room.archiving()) {
            return history.head() + 1;
        }
        return room.persistence().archivedInStore() ? 1 : Math.max(1, history.head() - history.capacity() + 1);
    }

    public static void handle(Room room, IQ iq, RealJid session, Occupant requester) {
        if (RoomAccess.refuses(room, iq, RoomAccess.Act.READ_ARCHIVE, session, requester, null)) {
            return;
        }
        if (iq.getType() == IQ.Type.get) {
            room.output().send(formFields(iq));
            return;
        }
        boolean realJids = WhoisOption.nonAnonymous(room.config())
                || (requester != null && requester.role() == Role.MODERATOR)
                || room.affiliationOf(session).atLeast(Affiliation.ADMIN);
        ArchiveQuery query;
        try {
            query = parse(room, iq.getChildElement(), realJids);
        } catch (Refused r) {
            room.output().error(iq, r.condition, r.getMessage());
            return;
        }
        Set<String> held = room.fire(RoomEvent.ARCHIVE_QUERY, new RoomEvent.ArchiveQuery(room, requester, new HashSet<>())).leftOut();
        Answer answer = new Answer(room.jid().jid(), iq, realJids, held);
        for (String id : new String[] {query.after(), query.before()}) {
            if (id != null && held.contains(id)) {
                // As for an id the archive does not have: the page must not tell that the message exists.
                answer.fail(new ArchiveQuery.UnknownIdException(id), room.output()::send);
                return;
            }
        }
        if (room.persistence().archivedInStore()) {
            // The store answers on its own thread; what it sends needs nothing of the room's state.
            RoomJournal journal = room.context().journal();
            room.context().store().query(room.jid().toString(), query,
                    page -> answer.send(page, p -> journal.sendNow(OutgoingStanza.of(p))),
                    failure -> answer.fail(failure, p -> journal.sendNow(OutgoingStanza.of(p))));
            return;
        }
        try {
            answer.send(query.over(inMemory(room)), room.output()::send);
        } catch (ArchiveQuery.UnknownIdException e) {
            answer.fail(e, room.output()::send);
        }
    }

    /** XEP-0313 §4.1.4: the fields a query may use. */
    private static IQ formFields(IQ iq) {
        IQ result = IQ.createResultIQ(iq);
        DataForm form = new DataForm(DataForm.Type.form);
        form.addField("FORM_TYPE", null, FormField.Type.hidden).addValue(NAMESPACE);
        form.addField("with", null, FormField.Type.jid_single);
        form.addField("start", null, FormField.Type.text_single);
        form.addField("end", null, FormField.Type.text_single);
        result.setChildElement("query", NAMESPACE).add(form.getElement());
        return result;
    }

    private static ArchiveQuery parse(Room room, Element query, boolean realJids) throws Refused {
        Instant start = null;
        Instant end = null;
        String withNick = null;
        String withSender = null;
        Element form = query.element(QName.get("x", Namespaces.DATA_FORMS));
        if (form != null) {
            for (Element f : form.elements("field")) {
                String var = f.attributeValue("var");
                String value = f.elementTextTrim("value");
                if (var == null) {
                    throw new Refused(Condition.BAD_REQUEST, "A field of the query form has no 'var'");
                }
                switch (var) {
                    case "FORM_TYPE" -> {
                        if (!NAMESPACE.equals(value)) {
                            throw new Refused(Condition.BAD_REQUEST, "The query form's FORM_TYPE must be " + NAMESPACE);
                        }
                    }
                    case "start" -> start = time(var, value);
                    case "end" -> end = time(var, value);
                    case "with" -> {
                        JID with = jid(value);
                        if (room.jid().toString().equals(with.toBareJID()) && with.getResource() != null) {
                            withNick = with.getResource();
                        } else if (!realJids) {
                            throw new Refused(Condition.FORBIDDEN, "In this semi-anonymous room only moderators may"
                                    + " search by real JID; search by occupant JID (" + room.jid() + "/nick) instead");
                        } else {
                            withSender = with.toBareJID();
                        }
                    }
                    default -> throw new Refused(Condition.FEATURE_NOT_IMPLEMENTED,
                            "The archive does not support the query field '" + var + "'");
                }
            }
        }
        if (start != null && end != null && end.isBefore(start)) {
            throw new Refused(Condition.BAD_REQUEST, "'end' is before 'start'");
        }
        int max = MAX_PAGE;
        String after = null;
        String before = null;
        Element set = query.element(QName.get("set", RSM));
        if (set != null) {
            if (set.element("index") != null) {
                throw new Refused(Condition.FEATURE_NOT_IMPLEMENTED, "Paging by <index/> is not supported: use <after/> or <before/>");
            }
            String maxText = set.elementTextTrim("max");
            if (maxText != null) {
                try {
                    max = Math.min(MAX_PAGE, Integer.parseInt(maxText));
                } catch (NumberFormatException e) {
                    max = -1;
                }
                if (max < 0) {
                    throw new Refused(Condition.BAD_REQUEST, "<max/> must be a whole number >= 0, not '" + maxText + "'");
                }
            }
            Element afterElement = set.element("after");
            Element beforeElement = set.element("before");
            if (afterElement != null && beforeElement != null) {
                throw new Refused(Condition.BAD_REQUEST, "Page with either <after/> or <before/>, not both");
            }
            if (afterElement != null) {
                after = afterElement.getTextTrim();
                if (after.isEmpty()) {
                    throw new Refused(Condition.BAD_REQUEST, "<after/> needs the id of a message");
                }
            }
            if (beforeElement != null) {
                before = beforeElement.getTextTrim();
            }
        }
        return new ArchiveQuery(start, end, withNick, withSender, after, before, max);
    }

    private static Instant time(String var, String value) throws Refused {
        OffsetDateTime time;
        try {
            time = OffsetDateTime.parse(value == null ? "" : value);
        } catch (DateTimeParseException e) {
            time = null;
        }
        // XEP-0082 years have four digits (as Prosody reads them); java.time reads up to nine, past
        // what the store's microseconds hold.
        if (time == null || time.getYear() < 0 || time.getYear() > 9999) {
            throw new Refused(Condition.BAD_REQUEST, "'" + var + "' must be an XEP-0082 date and time such as"
                    + " 2026-01-01T10:00:00Z, not '" + value + "'");
        }
        return time.toInstant();
    }

    private static JID jid(String value) throws Refused {
        try {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("empty");
            }
            return new JID(value);
        } catch (IllegalArgumentException e) {
            throw new Refused(Condition.BAD_REQUEST, "'with' must be a JID, not '" + value + "'");
        }
    }

    /** A room's in-memory log as an archive. */
    private static List<ArchivedMessage> inMemory(Room room) {
        MessageLog<Occupant> history = room.history();
        List<ArchivedMessage> log = new ArrayList<>();
        for (long seq = Math.max(1, history.head() - history.capacity() + 1); seq <= history.head(); seq++) {
            MessageLog.Entry<Occupant> e = history.get(seq);
            if (e != null) {
                JID from = e.broadcast().getFrom();
                log.add(new ArchivedMessage(seq, e.stanzaId(), e.at(), from == null ? "" : from.getResource(),
                        e.author() == null ? null : e.author().bareJid().toString(), e.broadcast().toXML()));
            }
        }
        return log;
    }

    /**
     * The results and the fin for one query: built from values only, so any thread may send them.
     * {@code held} are the stanza-ids of messages held back from the reader (moderation delay): left out.
     */
    private record Answer(JID room, IQ request, boolean realJids, Set<String> held) {

        interface Sender {
            void send(Packet packet);
        }

        void send(ArchiveQuery.Page page, Sender out) {
            Element queryElement = request.getChildElement();
            String queryId = queryElement.attributeValue("queryid");
            List<ArchivedMessage> items = page.items().stream().filter(m -> !held.contains(m.stanzaId())).toList();
            for (ArchivedMessage m : items) {
                Message result = new Message();
                result.setFrom(room);
                result.setTo(request.getFrom());
                result.setID((queryId == null ? "" : queryId + "-") + m.stanzaId());
                Element r = result.getElement().addElement("result", NAMESPACE);
                if (queryId != null) {
                    r.addAttribute("queryid", queryId);
                }
                r.addAttribute("id", m.stanzaId());
                r.add(forwarded(m));
                out.send(result);
            }
            IQ fin = IQ.createResultIQ(request);
            Element f = fin.setChildElement("fin", NAMESPACE);
            if (page.complete()) {
                f.addAttribute("complete", "true");
            }
            Element set = f.addElement("set", RSM);
            if (!items.isEmpty()) {
                set.addElement("first").setText(items.get(0).stanzaId());
                set.addElement("last").setText(items.get(items.size() - 1).stanzaId());
            }
            set.addElement("count").setText(Integer.toString(page.count() - (page.items().size() - items.size())));
            out.send(fin);
        }

        /** XEP-0313 §6.1.2: no 'to', 'from' the occupant JID, the room's own muc#user data only. */
        private Element forwarded(ArchivedMessage m) {
            Element message;
            try {
                message = Dom4jText.parse(m.xml());
            } catch (DocumentException e) {
                throw new IllegalStateException("an archived message is not XML: " + m.stanzaId(), e);
            }
            for (Element child : message.elements()) {
                if (Namespaces.MUC_USER.equals(child.getNamespaceURI())) {
                    message.remove(child);
                }
            }
            if (realJids && m.sender() != null) {
                message.addElement("x", Namespaces.MUC_USER).addElement("item").addAttribute("jid", m.sender());
            }
            try {
                return Dom4jText.parse(ForwardedItems.xml(message, m.at(), room.toString()));
            } catch (DocumentException e) {
                throw new IllegalStateException("an archived message does not forward: " + m.stanzaId(), e);
            }
        }

        void fail(Exception failure, Sender out) {
            Packet error;
            if (failure instanceof ArchiveQuery.UnknownIdException) {
                error = StanzaErrors.reply(request, Condition.ITEM_NOT_FOUND, failure.getMessage());
            } else {
                LOG.warn("archive query on {} failed: {}", room, failure.toString());
                error = StanzaErrors.reply(request, Condition.RESOURCE_CONSTRAINT,
                        "The archive cannot be read now; try again later");
            }
            if (error != null) {
                out.send(error);
            }
        }
    }
}
