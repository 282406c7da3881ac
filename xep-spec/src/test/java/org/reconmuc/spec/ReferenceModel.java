package org.reconmuc.spec;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import org.reconmuc.codec.SecureXml;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.batch.RawDeflate;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * A deliberately simple, in-memory model of a ReConMUC room that follows reconmuc.md literally
 * (no history pointers, no indexes: lists and loops), with a fake clock. It replays the scenario
 * scripts so that their expectations are checked against the rules as written. It is a test
 * oracle for the scripts, not a design for the component.
 */
final class ReferenceModel {
    private static final Pattern HASHTAG = Pattern.compile("(?<![\\p{L}\\p{Nd}_-])#([\\p{L}\\p{Nd}_-]{1,64})(?![\\p{L}\\p{Nd}_-])");
    private static final String XMLNS = XMLConstants.XMLNS_ATTRIBUTE_NS_URI;

    private final Document doc = SecureXml.documentBuilder().newDocument();
    private final TemplateMatcher matcher = new TemplateMatcher();
    private final Map<String, Participant> participants = new LinkedHashMap<>();
    private final List<Msg> history = new ArrayList<>();
    private String room = "chat@conference.example.org";
    private int historySize = 100;
    private Integer maxVolume;
    private int maxTime = 3600;
    private int maxFilterEntries = 8;
    private long now = Instant.parse("2011-03-21T09:00:00Z").toEpochMilli();
    private long seq;
    private long ids;

    private static final class Participant {
        final String who;
        final String jid;
        final Deque<Element> inbox = new ArrayDeque<>();
        Occupant occupant;
        /**
         * §5.9 rule 8, literally: one persistent raw DEFLATE stream per session (the service keeps
         * only a window instead; both must read the same), and the number of its last batch.
         */
        java.util.zip.Deflater stream;
        int streamBatches;
        /**
         * The stream's batches that hold its last 32 KiB of payload (what it may still refer to),
         * oldest first: each as its oldest message's number and its payload's length (§5.9 rule 8.4).
         */
        final Deque<long[]> window = new ArrayDeque<>();

        void newStream() {
            stream = null;
            streamBatches = 0;
            window.clear();
        }

        /** A batch of the stream whose oldest message is {@code oldestSeq} and whose payload is {@code bytes} long. */
        void sent(long oldestSeq, int bytes) {
            window.addLast(new long[] {oldestSeq, bytes});
            long total = window.stream().mapToLong(b -> b[1]).sum();
            while (total - window.peekFirst()[1] >= 32 * 1024) {
                total -= window.removeFirst()[1];
            }
        }

        /** Whether the stream may still refer to a message numbered below {@code seq}. */
        boolean refersBefore(long seq) {
            return !window.isEmpty() && window.peekFirst()[0] < seq;
        }

        Participant(String who, String jid) {
            this.who = who;
            this.jid = jid;
        }
    }

    private static final class Occupant {
        final Participant session;
        String nick;
        /** The first to enter (who creates the room) is its owner, so a moderator (XEP-0045 §5.1.2). */
        boolean moderator;
        Reqs reqs; // null: standard mode
        final List<Msg> retained = new ArrayList<>();

        Occupant(Participant session, String nick) {
            this.session = session;
            this.nick = nick;
        }
    }

    private record Entry(String element, String value) {
    }

    private static final class Reqs {
        final LinkedHashSet<Entry> filter = new LinkedHashSet<>();
        BigInteger time;
        BigInteger volume;
        String aggregation;

        Reqs copy() {
            Reqs r = new Reqs();
            r.filter.addAll(filter);
            r.time = time;
            r.volume = volume;
            r.aggregation = aggregation;
            return r;
        }
    }

    private static final class Msg {
        final long seq;
        final String stanzaId;
        final long stamp;
        final Occupant sender;
        final String senderNick;
        /** The sender's real bare JID: only it may take the message back (§5.14 rule 4). */
        final String author;
        /** As broadcast. */
        final Element broadcast;
        /** After its author's correction while someone held it, what holders get (§5.14 rule 2); else null. */
        Element finalForm;
        final Set<String> topics;
        final Msg parent;
        /** §5.14 rule 1: retracted or moderated; never sent again. */
        boolean retracted;
        /** §5.14 rule 3: those who held what this message takes back; they never get it. */
        final Set<Occupant> withheld = new LinkedHashSet<>();

        Msg(long seq, String stanzaId, long stamp, Occupant sender, String senderNick, String author, Element broadcast,
            Set<String> topics, Msg parent) {
            this.seq = seq;
            this.stanzaId = stanzaId;
            this.stamp = stamp;
            this.sender = sender;
            this.senderNick = senderNick;
            this.author = author;
            this.broadcast = broadcast;
            this.topics = topics;
            this.parent = parent;
        }

        Element held() {
            return finalForm == null ? broadcast : finalForm;
        }
    }

    /** Replays a scenario; throws AssertionError naming the step that fails. */
    void replay(Element scenario) {
        int index = 0;
        for (Element step : TemplateMatcher.children(scenario)) {
            index++;
            try {
                step(step);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("step " + index + " <" + step.getLocalName() + " " + describe(step) + ">: "
                        + e.getMessage(), e);
            }
        }
        for (Participant p : participants.values()) {
            if (!p.inbox.isEmpty()) {
                throw new AssertionError("at the end, " + p.who + " has an unexpected stanza: " + serialize(p.inbox.peek()));
            }
        }
    }

    private static String describe(Element step) {
        StringBuilder b = new StringBuilder();
        NamedNodeMap a = step.getAttributes();
        for (int i = 0; i < a.getLength(); i++) {
            b.append(a.item(i).getNodeName()).append("='").append(a.item(i).getNodeValue()).append("' ");
        }
        return b.toString().strip();
    }

    private void step(Element step) {
        switch (step.getLocalName()) {
            case "description" -> {
            }
            case "config" -> {
                if (step.hasAttribute("room")) {
                    room = step.getAttribute("room");
                }
                if (step.hasAttribute("history-size")) {
                    historySize = Integer.parseInt(step.getAttribute("history-size"));
                }
                if (step.hasAttribute("max-volume")) {
                    maxVolume = Integer.parseInt(step.getAttribute("max-volume"));
                }
                if (step.hasAttribute("max-time")) {
                    maxTime = Integer.parseInt(step.getAttribute("max-time"));
                }
                if (step.hasAttribute("max-filter-entries")) {
                    maxFilterEntries = Integer.parseInt(step.getAttribute("max-filter-entries"));
                }
                if (step.hasAttribute("start")) {
                    now = OffsetDateTime.parse(step.getAttribute("start")).toInstant().toEpochMilli();
                }
            }
            case "participant" -> participants.put(step.getAttribute("who"),
                    new Participant(step.getAttribute("who"), step.getAttribute("jid")));
            case "join" -> {
                Participant p = participants.computeIfAbsent(step.getAttribute("who"),
                        w -> new Participant(w, step.getAttribute("jid")));
                boolean first = occupants().isEmpty();
                p.occupant = new Occupant(p, step.getAttribute("nick"));
                p.occupant.moderator = first;
                // §5.9 rule 8.4: an entry starts anew every stream that may refer to a message the newcomer
                // cannot read in the archive — this room is logged, and its in-memory archive holds the newest
                // historySize messages.
                long readableFrom = Math.max(1, seq - historySize + 1);
                for (Participant other : participants.values()) {
                    if (other.refersBefore(readableFrom)) {
                        other.newStream();
                    }
                }
            }
            case "leave" -> participants.get(step.getAttribute("who")).occupant = null;
            case "change-nick" -> participants.get(step.getAttribute("who")).occupant.nick = step.getAttribute("nick");
            case "send" -> send(step);
            case "receive" -> {
                Element template = TemplateMatcher.children(step).get(0);
                for (String who : step.getAttribute("who").split(" ")) {
                    Element got = participants.get(who).inbox.poll();
                    if (got == null) {
                        throw new AssertionError(who + " received nothing");
                    }
                    matcher.mismatch(template, got).ifPresent(why -> {
                        throw new AssertionError(who + " received " + serialize(got) + "\n  mismatch: " + why);
                    });
                }
            }
            case "receive-nothing" -> {
                List<String> whos = step.hasAttribute("who") ? List.of(step.getAttribute("who").split(" "))
                        : List.copyOf(participants.keySet());
                for (String who : whos) {
                    Element got = participants.get(who).inbox.peek();
                    if (got != null) {
                        throw new AssertionError(who + " received " + serialize(got));
                    }
                }
            }
            case "advance" -> advance(new java.math.BigDecimal(step.getAttribute("seconds")).movePointRight(3).longValueExact());
            default -> throw new IllegalStateException("unknown step " + step.getLocalName());
        }
    }

    // ---------------------------------------------------------------------------- clock

    private void advance(long millis) {
        long target = now + millis;
        while (true) {
            Occupant next = null;
            long due = Long.MAX_VALUE;
            for (Occupant o : occupants()) {
                if (o.reqs != null && !o.retained.isEmpty()) {
                    long d = o.retained.get(0).stamp + o.reqs.time.longValueExact() * 1000;
                    if (d < due) {
                        due = d;
                        next = o;
                    }
                }
            }
            if (next == null || due > target) {
                break;
            }
            now = Math.max(now, due);
            deliverRetained(next, List.copyOf(next.retained));
        }
        now = target;
    }

    private List<Occupant> occupants() {
        List<Occupant> list = new ArrayList<>();
        for (Participant p : participants.values()) {
            if (p.occupant != null) {
                list.add(p.occupant);
            }
        }
        return list;
    }

    // ---------------------------------------------------------------------------- sending

    private void send(Element step) {
        Participant p = participants.get(step.getAttribute("who"));
        Element stanza = (Element) doc.importNode(TemplateMatcher.children(step).get(0), true);
        substitute(stanza);
        if (!stanza.hasAttribute("from")) {
            stanza.setAttribute("from", p.jid);
        }
        switch (stanza.getLocalName()) {
            case "iq" -> iq(p, stanza);
            case "message" -> {
                if (!"groupchat".equals(stanza.getAttribute("type")) || !room.equals(stanza.getAttribute("to"))) {
                    throw new IllegalStateException("the model handles only groupchat messages to the room");
                }
                groupchat(p, stanza);
                if (!"explicit".equals(step.getAttribute("echo"))) {
                    Element echo = p.inbox.poll();
                    if (echo == null || !"message".equals(echo.getLocalName())
                            || !(room + "/" + p.occupant.nick).equals(echo.getAttribute("from"))
                            || !stanza.getAttribute("id").equals(echo.getAttribute("id"))) {
                        throw new AssertionError("the sender's next stanza is not the echo: " + serialize(echo));
                    }
                    if (step.hasAttribute("capture-stanza-id")) {
                        for (Element c : TemplateMatcher.children(echo)) {
                            if (XmlNamespaces.STANZA_ID.equals(c.getNamespaceURI()) && room.equals(c.getAttribute("by"))) {
                                matcher.bind(step.getAttribute("capture-stanza-id"), c.getAttribute("id"));
                            }
                        }
                    }
                }
            }
            default -> throw new IllegalStateException("the model does not send " + stanza.getLocalName());
        }
    }

    private void substitute(Element e) {
        NamedNodeMap attrs = e.getAttributes();
        for (int i = 0; i < attrs.getLength(); i++) {
            Attr a = (Attr) attrs.item(i);
            a.setValue(matcher.substitute(a.getValue()));
        }
        List<Element> kids = TemplateMatcher.children(e);
        if (kids.isEmpty() && TemplateMatcher.isCapture(TemplateMatcher.text(e))) {
            e.setTextContent(matcher.substitute(TemplateMatcher.text(e)));
        }
        for (Element k : kids) {
            substitute(k);
        }
    }

    // ---------------------------------------------------------------------------- §5.2 requests

    private void iq(Participant p, Element iq) {
        Element cr = TemplateMatcher.children(iq).get(0);
        String ns = cr.getNamespaceURI();
        if ("moderate".equals(cr.getLocalName()) && XmlNamespaces.MODERATE.equals(ns)) {
            moderate(p, iq, cr.getAttribute("id"));
            return;
        }
        if ("apply-to".equals(cr.getLocalName()) && XmlNamespaces.FASTEN.equals(ns)) {
            // §5.14 rule 6: XEP-0425 0.2's request.
            moderate(p, iq, cr.getAttribute("id"));
            return;
        }
        if (!"consistency-requirements".equals(cr.getLocalName()) || !Dom.OURS.contains(ns)) {
            throw new IllegalStateException("the model handles only consistency-requirements IQs");
        }
        Occupant o = p.occupant;
        if (o == null) {
            error(p, iq, "not-acceptable", "cancel", "Only occupants may state consistency requirements");
            return;
        }
        if ("get".equals(iq.getAttribute("type"))) {
            if (!TemplateMatcher.children(cr).isEmpty()) {
                error(p, iq, "bad-request", "modify", "A get carries an empty element");
                return;
            }
            result(p, iq, ns, o.reqs);
            return;
        }
        String syntax = Dom.validationError(cr);
        List<Element> kids = TemplateMatcher.children(cr);
        boolean standard = kids.stream().anyMatch(k -> "standard".equals(k.getLocalName()));
        if (syntax == null && standard && kids.size() > 1) {
            syntax = "standard stands alone";
        }
        Reqs next = o.reqs == null ? defaults() : o.reqs.copy();
        if (syntax == null && !standard) {
            for (Element k : kids) {
                switch (k.getLocalName()) {
                    case "time" -> next.time = number(k);
                    case "volume" -> next.volume = number(k);
                    case "aggregation" -> next.aggregation = TemplateMatcher.text(k);
                    case "filter" -> {
                        for (Element fe : TemplateMatcher.children(k)) {
                            String element = fe.getAttribute("element");
                            String value = fe.getAttribute("value");
                            if ("topic".equals(element)) {
                                value = normaliseTopic(value);
                                if (value == null) {
                                    syntax = "topic value empty or too long";
                                    break;
                                }
                            }
                            String active = fe.getAttribute("active");
                            Entry entry = new Entry(element, value);
                            if (active.isEmpty() || "true".equals(active) || "1".equals(active)) {
                                next.filter.add(entry);
                            } else {
                                next.filter.remove(entry);
                            }
                        }
                    }
                    default -> throw new IllegalStateException(k.getLocalName());
                }
            }
        }
        if (syntax != null) {
            error(p, iq, "bad-request", "modify", syntax);
            return;
        }
        if (!standard) {
            int volumeLimit = Math.min(historySize, maxVolume == null ? historySize : maxVolume);
            if (next.volume.compareTo(BigInteger.valueOf(volumeLimit)) > 0) {
                error(p, iq, "policy-violation", "modify", "volume above " + volumeLimit);
                return;
            }
            if (next.time.compareTo(BigInteger.valueOf(Math.min(maxTime, 86400))) > 0) {
                error(p, iq, "policy-violation", "modify", "time above " + maxTime);
                return;
            }
            if (next.filter.size() > maxFilterEntries) {
                error(p, iq, "policy-violation", "modify", "too many filter entries");
                return;
            }
        }
        // §5.8
        if (standard) {
            result(p, iq, ns, null);
            if (o.reqs != null && !o.retained.isEmpty()) {
                deliverRetained(o, List.copyOf(o.retained));
            }
            o.reqs = null;
            return;
        }
        o.reqs = next;
        result(p, iq, ns, next);
        p.newStream(); // §5.9 rule 8.4: a successful set starts the occupant's streams anew
        TreeSet<Msg> release = new TreeSet<>(Comparator.comparingLong(m -> m.seq));
        for (Msg m : o.retained) {
            if (matches(o, m)) {
                release.add(m);
                release.addAll(retainedAncestors(o, m));
            }
        }
        if (!release.isEmpty()) {
            deliverRetained(o, List.copyOf(release));
        }
        if (!o.retained.isEmpty() && (o.retained.size() >= next.volume.intValue()
                || now - o.retained.get(0).stamp >= next.time.longValueExact() * 1000)) {
            deliverRetained(o, List.copyOf(o.retained));
        }
    }

    private Reqs defaults() {
        Reqs r = new Reqs();
        r.time = BigInteger.valueOf(Math.min(60, maxTime));
        r.volume = BigInteger.valueOf(Math.min(Math.min(20, historySize), maxVolume == null ? historySize : maxVolume));
        r.aggregation = "plain";
        return r;
    }

    private static BigInteger number(Element e) {
        String t = TemplateMatcher.text(e);
        return new BigInteger(t.startsWith("+") ? t.substring(1) : t);
    }

    static String normaliseTopic(String raw) {
        String v = raw.strip();
        if (v.startsWith("#")) {
            v = v.substring(1);
        }
        v = v.toLowerCase(Locale.ROOT);
        int length = v.codePointCount(0, v.length());
        return length >= 1 && length <= 64 ? v : null;
    }

    private void result(Participant p, Element iq, String ns, Reqs reqs) {
        Element out = stanza("iq", p);
        out.setAttribute("type", "result");
        if (iq.hasAttribute("id")) {
            out.setAttribute("id", iq.getAttribute("id"));
        }
        Element cr = child(out, ns, "consistency-requirements");
        if (reqs == null) {
            child(cr, ns, "standard");
        } else {
            Element filter = child(cr, ns, "filter");
            for (Entry e : reqs.filter) {
                Element fe = child(filter, ns, "filter-entry");
                fe.setAttribute("element", e.element());
                fe.setAttribute("value", e.value());
                fe.setAttribute("active", "true");
            }
            child(cr, ns, "time").setTextContent(reqs.time.toString());
            child(cr, ns, "volume").setTextContent(reqs.volume.toString());
            child(cr, ns, "aggregation").setTextContent(reqs.aggregation);
        }
        p.inbox.add(out);
    }

    /** The error reply to {@code request} (an IQ or a message): from the room, the request's id, no payload. */
    private void error(Participant p, Element request, String condition, String type, String text) {
        Element out = stanza(request.getLocalName(), p);
        out.setAttribute("type", "error");
        if (request.hasAttribute("id")) {
            out.setAttribute("id", request.getAttribute("id"));
        }
        Element error = child(out, XmlNamespaces.JABBER_CLIENT, "error");
        error.setAttribute("type", type);
        child(error, XmlNamespaces.STANZAS, condition);
        Element t = child(error, XmlNamespaces.STANZAS, "text");
        t.setAttributeNS(XMLConstants.XML_NS_URI, "xml:lang", "en");
        t.setTextContent(text);
        p.inbox.add(out);
    }

    // ---------------------------------------------------------------------------- §5.3-§5.7 messages

    private void groupchat(Participant p, Element message) {
        Occupant sender = p.occupant;
        Element broadcast = (Element) message.cloneNode(true);
        broadcast.removeAttribute("to");
        broadcast.setAttribute("from", room + "/" + sender.nick);
        stripRoomClaims(broadcast);
        Msg taken = takenBack(sender, message);
        if (taken != null && !taken.author.equals(bare(sender.session.jid))) {
            error(p, message, "forbidden", "auth", "Only its author may take a message back");
            return;
        }
        boolean correction = TemplateMatcher.children(message).stream()
                .anyMatch(c -> "replace".equals(c.getLocalName()) && XmlNamespaces.CORRECT.equals(c.getNamespaceURI()));
        if (taken != null && taken.retracted && correction) {
            error(p, message, "not-allowed", "cancel", "A retracted message can no longer be corrected");
            return;
        }
        Element sid = child(broadcast, XmlNamespaces.STANZA_ID, "stanza-id");
        sid.setAttribute("by", room);
        sid.setAttribute("id", "sid-" + (++ids));

        Set<String> topics = new LinkedHashSet<>();
        boolean tagged = false;
        for (Element c : TemplateMatcher.children(message)) {
            if ("topic".equals(c.getLocalName()) && Dom.OURS.contains(c.getNamespaceURI())) {
                tagged = true;
                String t = normaliseTopic(c.getTextContent());
                if (t != null) {
                    topics.add(t);
                }
            }
        }
        String body = "";
        for (Element c : TemplateMatcher.children(message)) {
            if ("body".equals(c.getLocalName())) {
                body = c.getTextContent();
                if (!tagged) {
                    Matcher h = HASHTAG.matcher(body);
                    while (h.find()) {
                        topics.add(h.group(1).toLowerCase(Locale.ROOT));
                    }
                }
            }
        }
        Msg parent = null;
        Set<Occupant> addressed = new LinkedHashSet<>();
        for (Element c : TemplateMatcher.children(message)) {
            if ("reply".equals(c.getLocalName()) && XmlNamespaces.REPLY.equals(c.getNamespaceURI())) {
                for (Msg h : history) {
                    if (h.stanzaId.equals(c.getAttribute("id"))) {
                        parent = h;
                    }
                }
                if (parent == null) {
                    for (Occupant o : occupants()) {
                        if ((room + "/" + o.nick).equals(c.getAttribute("to"))) {
                            addressed.add(o);
                        }
                    }
                }
                break;
            }
        }
        boolean replies = TemplateMatcher.children(message).stream()
                .anyMatch(c -> "reply".equals(c.getLocalName()) && XmlNamespaces.REPLY.equals(c.getNamespaceURI()));
        for (Element c : TemplateMatcher.children(message)) {
            // §5.5 rule 1: a reaction's parent is the message it is for (XEP-0444).
            if (!replies && "reactions".equals(c.getLocalName()) && XmlNamespaces.REACTIONS.equals(c.getNamespaceURI())) {
                for (Msg h : history) {
                    if (h.stanzaId.equals(c.getAttribute("id"))) {
                        parent = h;
                    }
                }
            }
        }
        String lead = body.stripLeading().toLowerCase(Locale.ROOT);
        for (Occupant o : occupants()) {
            String nick = o.nick.toLowerCase(Locale.ROOT);
            if (lead.startsWith(nick + ":") || lead.startsWith(nick + ",")) {
                addressed.add(o);
            }
        }
        for (Element c : TemplateMatcher.children(message)) {
            if ("reference".equals(c.getLocalName()) && XmlNamespaces.REFERENCE.equals(c.getNamespaceURI())
                    && "mention".equals(c.getAttribute("type"))) {
                for (Occupant o : occupants()) {
                    if (("xmpp:" + room + "/" + o.nick).equals(c.getAttribute("uri"))) {
                        addressed.add(o);
                    }
                }
            }
        }
        Set<Occupant> holders = takeBack(taken, correction, broadcast);
        Msg m = new Msg(++seq, sid.getAttribute("id"), now, sender, sender.nick, bare(sender.session.jid), broadcast, topics, parent);
        m.withheld.addAll(holders);
        history.add(m);

        for (Occupant o : occupants()) {
            boolean atOnce = o == sender || o.reqs == null || (parent != null && parent.sender == o)
                    || addressed.contains(o) || matches(o, m);
            if (atOnce && liveItems(o) && !m.withheld.contains(o)) {
                // §5.9 rule 8.6: everything retained, then the message as the batch's live item.
                deliverLive(o, List.copyOf(o.retained), m);
            } else if (atOnce) {
                List<Msg> ancestors = retainedAncestors(o, m);
                if (!ancestors.isEmpty()) {
                    deliverRetained(o, ancestors);
                }
                if (!m.withheld.contains(o)) {
                    o.session.inbox.add(addressed(m.broadcast, o));
                }
            } else {
                o.retained.add(m);
                if (o.retained.size() >= o.reqs.volume.intValue()) {
                    deliverRetained(o, List.copyOf(o.retained));
                }
            }
        }
        if (history.size() >= historySize) {
            Msg oldest = history.get(0);
            for (Occupant o : occupants()) {
                if (o.retained.contains(oldest)) {
                    deliverRetained(o, List.copyOf(o.retained));
                }
            }
        }
        while (history.size() > historySize) {
            history.remove(0);
        }
    }

    // ---------------------------------------------------------------------------- §5.14 taking back

    /** Holders of {@code target}: the occupants for which it is retained. */
    private List<Occupant> holders(Msg target) {
        List<Occupant> holders = new ArrayList<>();
        for (Occupant o : occupants()) {
            if (o.retained.contains(target)) {
                holders.add(o);
            }
        }
        return holders;
    }

    /**
     * The message of the history that a retraction or correction in {@code message} names, or null
     * (§5.14 rules 4 and 6): by its stanza-id, else by its origin-id or {@code id} — the sender's
     * own if several authors' messages carry that id; a correction names no stanza-id.
     */
    private Msg takenBack(Occupant sender, Element message) {
        for (Element c : TemplateMatcher.children(message)) {
            String ns = c.getNamespaceURI();
            boolean retraction = "retract".equals(c.getLocalName()) && XmlNamespaces.RETRACT.equals(ns)
                    || "apply-to".equals(c.getLocalName()) && XmlNamespaces.FASTEN.equals(ns)
                    && TemplateMatcher.children(c).stream().anyMatch(r -> "retract".equals(r.getLocalName())
                            && XmlNamespaces.RETRACT_0.equals(r.getNamespaceURI()));
            boolean correction = "replace".equals(c.getLocalName()) && XmlNamespaces.CORRECT.equals(ns);
            if (!retraction && !correction) {
                continue;
            }
            String id = c.getAttribute("id");
            if (retraction) {
                for (Msg h : history) {
                    if (h.stanzaId.equals(id)) {
                        return h;
                    }
                }
            }
            String me = bare(sender.session.jid);
            Msg own = null;
            Msg anyone = null;
            for (Msg h : history) {
                if (id.equals(h.broadcast.getAttribute("id")) || id.equals(originId(h.broadcast))) {
                    anyone = h;
                    own = h.author.equals(me) ? h : own;
                }
            }
            return own != null ? own : anyone;
        }
        return null;
    }

    /**
     * {@code target}, named by a correction ({@code broadcast}, as the room sends it) or a
     * retraction and written by its sender, is taken back; returns who must not get that message.
     */
    private Set<Occupant> takeBack(Msg target, boolean correction, Element broadcast) {
        Set<Occupant> holders = new LinkedHashSet<>();
        if (target == null || target.retracted) {
            return holders;
        }
        holders.addAll(holders(target));
        if (!correction) {
            target.retracted = true;
        } else if (!holders.isEmpty()) {
            target.finalForm = finalForm(target.broadcast, broadcast);
        }
        return holders;
    }

    /** §8.2: what only the room may say, removed from an occupant's message. */
    private void stripRoomClaims(Element broadcast) {
        for (Element c : TemplateMatcher.children(broadcast)) {
            String ns = c.getNamespaceURI();
            boolean roomsOnly = ROOMS_ONLY.contains(ns)
                    || "retracted".equals(c.getLocalName()) && (XmlNamespaces.RETRACT.equals(ns) || XmlNamespaces.RETRACT_0.equals(ns))
                    || "stanza-id".equals(c.getLocalName()) && XmlNamespaces.STANZA_ID.equals(ns) && room.equals(c.getAttribute("by"))
                    || Dom.OURS.contains(ns) && !"topic".equals(c.getLocalName());
            if (roomsOnly) {
                broadcast.removeChild(c);
            } else if (XmlNamespaces.RETRACT.equals(ns) || XmlNamespaces.FASTEN.equals(ns)) {
                for (Element inner : TemplateMatcher.children(c)) {
                    if (ROOMS_ONLY.contains(inner.getNamespaceURI())) {
                        c.removeChild(inner);
                    }
                }
            }
        }
    }

    private static final Set<String> ROOMS_ONLY = Set.of("http://jabber.org/protocol/muc#user", XmlNamespaces.DELAY,
            "jabber:x:delay", XmlNamespaces.OCCUPANT_ID, XmlNamespaces.MODERATE, XmlNamespaces.MODERATE_0, "urn:xmpp:mam:0",
            "urn:xmpp:mam:1", "urn:xmpp:mam:2", "urn:xmpp:carbons:2", "http://jabber.org/protocol/address");

    private static String bare(String jid) {
        int slash = jid.indexOf('/');
        return slash < 0 ? jid : jid.substring(0, slash);
    }

    /** The original's attributes, stanza-id and occupant-id, with the correction's content (§5.14 rule 2). */
    private static Element finalForm(Element original, Element correction) {
        Element result = (Element) original.cloneNode(false);
        for (Element c : TemplateMatcher.children(original)) {
            if (identifies(c)) {
                result.appendChild(c.cloneNode(true));
            }
        }
        for (Element c : TemplateMatcher.children(correction)) {
            boolean replace = "replace".equals(c.getLocalName()) && XmlNamespaces.CORRECT.equals(c.getNamespaceURI());
            if (!replace && !identifies(c)) {
                result.appendChild(c.cloneNode(true));
            }
        }
        return result;
    }

    private static boolean identifies(Element c) {
        return XmlNamespaces.STANZA_ID.equals(c.getNamespaceURI()) || XmlNamespaces.OCCUPANT_ID.equals(c.getNamespaceURI());
    }

    private static String originId(Element message) {
        for (Element c : TemplateMatcher.children(message)) {
            if ("origin-id".equals(c.getLocalName()) && XmlNamespaces.STANZA_ID.equals(c.getNamespaceURI())) {
                return c.getAttribute("id");
            }
        }
        return null;
    }

    /**
     * XEP-0425: a moderator retracts a message; the notice, in both versions (§5.14 rule 6), goes
     * to everyone but its holders.
     */
    private void moderate(Participant p, Element iq, String stanzaId) {
        Occupant o = p.occupant;
        if (o == null || !o.moderator) {
            error(p, iq, "forbidden", "auth", "Only moderators may moderate messages in this room");
            return;
        }
        Msg target = null;
        for (Msg h : history) {
            if (h.stanzaId.equals(stanzaId) && !h.retracted) {
                target = h;
            }
        }
        if (target == null) {
            error(p, iq, "item-not-found", "cancel", "No message with that stanza-id in this room's history");
            return;
        }
        List<Occupant> holders = holders(target);
        target.retracted = true;
        Element result = stanza("iq", p);
        result.setAttribute("type", "result");
        result.setAttribute("id", iq.getAttribute("id"));
        p.inbox.add(result);
        for (Occupant other : occupants()) {
            if (holders.contains(other)) {
                continue;
            }
            Element notice = stanza("message", other.session);
            notice.setAttribute("type", "groupchat");
            Element retract = child(notice, XmlNamespaces.RETRACT, "retract");
            retract.setAttribute("id", target.stanzaId);
            Element moderated = child(retract, XmlNamespaces.MODERATE, "moderated");
            moderated.setAttribute("by", room + "/" + o.nick);
            Element applyTo = child(notice, XmlNamespaces.FASTEN, "apply-to");
            applyTo.setAttribute("id", target.stanzaId);
            Element legacy = child(applyTo, XmlNamespaces.MODERATE_0, "moderated");
            legacy.setAttribute("by", room + "/" + o.nick);
            child(legacy, XmlNamespaces.RETRACT_0, "retract");
            other.session.inbox.add(notice);
        }
    }

    private boolean matches(Occupant o, Msg m) {
        for (Entry e : o.reqs.filter) {
            if ("topic".equals(e.element()) && m.topics.contains(e.value())) {
                return true;
            }
            if ("nick".equals(e.element()) && e.value().equals(m.senderNick)) {
                return true;
            }
        }
        return false;
    }

    private static List<Msg> retainedAncestors(Occupant o, Msg m) {
        List<Msg> list = new ArrayList<>();
        for (Msg a = m.parent; a != null; a = a.parent) {
            if (o.retained.contains(a)) {
                list.add(0, a);
            }
        }
        return list;
    }

    // ---------------------------------------------------------------------------- §5.9 delivery

    /** §5.14: what was retracted, and what takes back a message this occupant never got, are not carried. */
    private static List<Msg> carried(Occupant o, List<Msg> retained) {
        return retained.stream().filter(m -> !m.retracted && !m.withheld.contains(o)).toList();
    }

    /** §5.9 rule 8.6: the occupant's messages at once go as live items (in compact batches or its live stream). */
    private static boolean liveItems(Occupant o) {
        return o.reqs != null && ("compact-live".equals(o.reqs.aggregation) || liveStream(o));
    }

    /** §5.9 rule 8.7: the occupant's stream is a live stream. */
    private static boolean liveStream(Occupant o) {
        return o.reqs != null && "compact-deflate-live".equals(o.reqs.aggregation);
    }

    /** A message at once as a live item: one batch of the retained set and then the message, live. */
    private void deliverLive(Occupant o, List<Msg> retained, Msg live) {
        o.retained.removeAll(retained);
        List<Msg> msgs = new ArrayList<>(carried(o, retained));
        msgs.add(live);
        Element out = stanza("message", o.session);
        out.setAttribute("type", "groupchat");
        compactBatch(out, msgs, liveStream(o) ? o.session : null, liveStream(o), true);
        o.session.inbox.add(out);
    }

    /** A flush (all) or release (some) of retained messages, in room order, in the aggregation. */
    private void deliverRetained(Occupant o, List<Msg> retained) {
        o.retained.removeAll(retained);
        List<Msg> msgs = carried(o, retained);
        if (msgs.isEmpty()) {
            return;
        }
        Participant p = o.session;
        String aggregation = o.reqs == null ? "plain" : o.reqs.aggregation;
        if ("none".equals(aggregation)) {
            for (Msg m : msgs) {
                Element single = addressed(m.held(), o);
                delay(single, m);
                p.inbox.add(single);
            }
            return;
        }
        Element out = stanza("message", p);
        out.setAttribute("type", "groupchat");
        if (aggregation.startsWith("compact")) {
            compactBatch(out, msgs, aggregation.startsWith("compact-deflate") ? p : null, liveStream(o), false);
            p.inbox.add(out);
            return;
        }
        out.setAttribute("id", "batch-" + (++ids));
        Element batch = child(out, XmlNamespaces.RECONMUC, "batch");
        batch.setAttribute("count", Integer.toString(msgs.size()));
        List<Element> items = new ArrayList<>();
        for (Msg m : msgs) {
            Element f = doc.createElementNS(XmlNamespaces.FORWARD, "forwarded");
            f.setAttributeNS(XMLNS, "xmlns", XmlNamespaces.FORWARD);
            delay(f, m);
            Element copy = (Element) m.held().cloneNode(true);
            copy.setAttributeNS(XMLNS, "xmlns", XmlNamespaces.JABBER_CLIENT);
            f.appendChild(copy);
            items.add(f);
        }
        if ("deflate".equals(aggregation)) {
            StringBuilder payload = new StringBuilder();
            for (Element f : items) {
                payload.append(serialize(f));
            }
            byte[] bytes = payload.toString().getBytes(StandardCharsets.UTF_8);
            byte[] deflated = RawDeflate.deflate(bytes, 9);
            batch.setAttribute("encoding", "deflate");
            batch.setAttribute("size", Integer.toString(bytes.length));
            batch.setAttribute("compressed-size", Integer.toString(deflated.length));
            batch.setTextContent(Base64.getEncoder().encodeToString(deflated));
        } else {
            for (Element f : items) {
                batch.appendChild(f);
            }
        }
        p.inbox.add(out);
    }

    /**
     * §5.9 rules 7 and 8: a compact batch (no id; stamp; one m per message with n, id, sid and
     * t), its items in the session's deflate stream when {@code streamOf} is given; in a live
     * stream (rule 8.7) the batch says only its number, its items are timed from the Unix epoch
     * and its text is base 85.
     */
    private void compactBatch(Element out, List<Msg> msgs, Participant streamOf, boolean liveStream, boolean lastIsLive) {
        Element batch = child(out, XmlNamespaces.RECONMUC, "batch");
        long second = 0;
        if (!liveStream) {
            batch.setAttribute("count", Integer.toString(msgs.size()));
            batch.setAttribute("form", "compact");
            second = Math.floorDiv(msgs.get(0).stamp, 1000);
            batch.setAttribute("stamp", Instant.ofEpochSecond(second).toString());
        }
        StringBuilder payload = new StringBuilder();
        for (Msg m : msgs) {
            Element item = doc.createElementNS(XmlNamespaces.RECONMUC, "m");
            item.setAttribute("n", m.senderNick);
            if (m.held().hasAttribute("id")) {
                item.setAttribute("id", m.held().getAttribute("id"));
            }
            item.setAttribute("sid", m.stanzaId);
            long s = Math.floorDiv(m.stamp, 1000);
            if (s != second) {
                item.setAttribute("t", Long.toString(s - second));
                second = s;
            }
            if (lastIsLive && m == msgs.get(msgs.size() - 1)) {
                item.setAttribute("l", "1");
            }
            for (Element c : TemplateMatcher.children(m.held())) {
                boolean roomsId = XmlNamespaces.STANZA_ID.equals(c.getNamespaceURI()) && room.equals(c.getAttribute("by"));
                if (!roomsId) {
                    Element copy = (Element) c.cloneNode(true);
                    if (!XmlNamespaces.RECONMUC.equals(copy.getNamespaceURI())) {
                        copy.setAttributeNS(XMLNS, "xmlns", copy.getNamespaceURI());
                    }
                    item.appendChild(copy);
                }
            }
            if (streamOf == null) {
                batch.appendChild(item);
            } else {
                // The item as it stands in the batch: the batch's namespace is in scope.
                payload.append(serialize(item).replace(" xmlns=\"" + XmlNamespaces.RECONMUC + "\"", ""));
            }
        }
        if (streamOf != null) {
            if (streamOf.stream == null) {
                streamOf.stream = new java.util.zip.Deflater(9, true);
            }
            byte[] bytes = payload.toString().getBytes(StandardCharsets.UTF_8);
            streamOf.stream.setInput(bytes);
            java.io.ByteArrayOutputStream deflated = new java.io.ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            int n;
            do {
                n = streamOf.stream.deflate(buf, 0, buf.length, java.util.zip.Deflater.SYNC_FLUSH);
                deflated.write(buf, 0, n);
            } while (n == buf.length);
            byte[] all = deflated.toByteArray();
            byte[] chunk = java.util.Arrays.copyOf(all, all.length - 4);
            streamOf.sent(msgs.stream().mapToLong(m -> m.seq).min().orElseThrow(), bytes.length);
            batch.setAttribute("encoding", liveStream ? "deflate-live" : "deflate-stream");
            batch.setAttribute("n", Integer.toString(++streamOf.streamBatches));
            if (liveStream) {
                batch.setTextContent(base85(chunk));
            } else {
                batch.setAttribute("size", Integer.toString(bytes.length));
                batch.setTextContent(Base64.getEncoder().encodeToString(chunk));
            }
        }
    }

    /** §5.9 rule 8.7's base 85, written out here as the rule says it (not the codec's). */
    private static String base85(byte[] bytes) {
        String digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%()*+,-./:;=?@[]^_{}";
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < bytes.length; i += 4) {
            byte[] group = java.util.Arrays.copyOfRange(bytes, i, i + 4);   // padded with zero bytes
            long value = new java.math.BigInteger(1, group).longValue();
            StringBuilder five = new StringBuilder();
            for (int d = 0; d < 5; d++) {
                five.insert(0, digits.charAt((int) (value % 85)));
                value /= 85;
            }
            text.append(five, 0, Math.min(4, bytes.length - i) + 1);
        }
        return text.toString();
    }

    private void delay(Element parent, Msg m) {
        Element d = child(parent, XmlNamespaces.DELAY, "delay");
        d.setAttribute("stamp", Instant.ofEpochMilli(m.stamp).toString());
        d.setAttribute("from", room);
    }

    private static Element addressed(Element broadcast, Occupant o) {
        Element copy = (Element) broadcast.cloneNode(true);
        copy.setAttribute("to", o.session.jid);
        return copy;
    }

    private Element stanza(String name, Participant to) {
        Element e = doc.createElementNS(XmlNamespaces.JABBER_CLIENT, name);
        e.setAttribute("from", room);
        e.setAttribute("to", to.jid);
        return e;
    }

    private Element child(Element parent, String ns, String name) {
        Element e = doc.createElementNS(ns, name);
        if (!ns.equals(parent.getNamespaceURI())) {
            e.setAttributeNS(XMLNS, "xmlns", ns);
        }
        parent.appendChild(e);
        return e;
    }

    static String serialize(Node n) {
        return n == null ? "nothing" : DomBatches.xml(n);
    }
}
