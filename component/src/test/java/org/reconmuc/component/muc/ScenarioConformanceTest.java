package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.reconmuc.codec.SecureXml;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.spec.DomBatches;
import org.reconmuc.spec.Scenarios;
import org.reconmuc.spec.TemplateMatcher;
import org.w3c.dom.Attr;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.xmpp.packet.Packet;
import org.xmpp.packet.Presence;

/**
 * Every scenario script of xep-spec ("Alice sends … Alice receives …") replayed through the
 * component's rooms with a virtual clock, matched with the spec's own {@link TemplateMatcher}
 * (rules M1–M7 of scenarios/README.md).
 */
class ScenarioConformanceTest {
    private static final String SCENARIO_NS = "urn:reconmuc:scenario:0";

    static List<String> scenarios() {
        return Scenarios.list();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void theComponentPlaysTheScenario(String name) {
        new Run(name).play();
    }

    /** One replay: the room, the participants, and what each has received but not yet matched. */
    private static final class Run {
        final String name;
        final Element script;
        final TemplateMatcher matcher = new TemplateMatcher();
        final Map<String, String> jids = new LinkedHashMap<>();
        final Map<String, String> nicks = new HashMap<>();
        String room = "chat@conference.example.org";
        MucBench muc;

        Run(String name) {
            this.name = name;
            this.script = SecureXml.parse(Scenarios.read(name)).getDocumentElement();
        }

        void play() {
            for (Element step : children(script)) {
                if (muc == null && !step.getLocalName().equals("config") && !step.getLocalName().equals("description")) {
                    configure(null);
                }
                switch (step.getLocalName()) {
                    case "description" -> { }
                    case "config" -> configure(step);
                    case "participant" -> jids.put(step.getAttribute("who"), step.getAttribute("jid"));
                    case "join" -> join(step);
                    case "leave" -> presence(step.getAttribute("who"), nicks.get(step.getAttribute("who")), " type='unavailable'", "");
                    case "change-nick" -> {
                        String who = step.getAttribute("who");
                        presence(who, step.getAttribute("nick"), "", "");
                        nicks.put(who, step.getAttribute("nick"));
                    }
                    case "send" -> send(step);
                    case "receive" -> receive(step);
                    case "receive-nothing" -> nothingFor(step.hasAttribute("who") ? step.getAttribute("who") : null, step);
                    case "advance" -> muc.advance(Duration.ofMillis((long) (Double.parseDouble(step.getAttribute("seconds")) * 1000)));
                    default -> throw new AssertionError(name + ": unknown step <" + step.getLocalName() + "/>");
                }
            }
            nothingFor(null, null);
        }

        void configure(Element config) {
            String start = "2011-03-21T09:00:00Z";
            int history = 100;
            int maxTime = 3600;
            int maxFilters = 8;
            if (config != null) {
                room = attr(config, "room", room);
                history = Integer.parseInt(attr(config, "history-size", "100"));
                maxTime = Integer.parseInt(attr(config, "max-time", "3600"));
                maxFilters = Integer.parseInt(attr(config, "max-filter-entries", "8"));
                start = attr(config, "start", start);
            }
            String domain = room.substring(room.indexOf('@') + 1);
            ServiceConfig c = ServiceConfig.defaults().toBuilder().domain(domain).secret("x").historySize(history)
                    .maxFilterEntries(maxFilters).maxTimeSeconds(maxTime).build();
            muc = new MucBench(c, Instant.parse(start));
        }

        void join(Element step) {
            String who = step.getAttribute("who");
            if (step.hasAttribute("jid")) {
                jids.put(who, step.getAttribute("jid"));
            }
            nicks.put(who, step.getAttribute("nick"));
            presence(who, step.getAttribute("nick"), "",
                    "<x xmlns='http://jabber.org/protocol/muc'><history maxstanzas='0'/></x>");
            // The join's presences and the subject; a creator accepts the instant room (XEP-0045
            // §10.1.2), which unlocks it for the others: that is part of the join being complete.
            if (muc.receivedBy(jids.get(who)).stream().anyMatch(p -> MucBench.statusCodes(p).contains("201"))) {
                muc.acceptInstantRoom(jids.get(who), room);
                muc.receivedBy(jids.get(who));
            }
        }

        void presence(String who, String nick, String type, String payload) {
            muc.send("<presence from='" + jids.get(who) + "' to='" + room + "/" + nick + "'" + type + ">" + payload + "</presence>");
        }

        void send(Element step) {
            String who = step.getAttribute("who");
            Element stanza = children(step).get(0);
            substitute(stanza);
            if (!stanza.hasAttribute("from")) {
                stanza.setAttribute("from", jids.get(who));
            }
            muc.send(unqualified(xml(stanza)));
            boolean groupchatToRoom = stanza.getLocalName().equals("message") && "groupchat".equals(stanza.getAttribute("type"))
                    && room.equals(stanza.getAttribute("to"));
            if (groupchatToRoom && !"explicit".equals(attr(step, "echo", "auto"))) {
                Element echo = next(who, step);
                assertThat(echo.getAttribute("type")).as(where(step) + ": echo type").isEqualTo("groupchat");
                assertThat(echo.getAttribute("from")).as(where(step) + ": echo from").isEqualTo(room + "/" + nicks.get(who));
                if (stanza.hasAttribute("id")) {
                    assertThat(echo.getAttribute("id")).as(where(step) + ": echo id").isEqualTo(stanza.getAttribute("id"));
                }
                if (step.hasAttribute("capture-stanza-id")) {
                    String id = null;
                    for (Element c : children(echo)) {
                        if ("stanza-id".equals(c.getLocalName()) && room.equals(c.getAttribute("by"))) {
                            id = c.getAttribute("id");
                        }
                    }
                    assertThat(id).as(where(step) + ": the echo's stanza-id").isNotNull();
                    matcher.bind(step.getAttribute("capture-stanza-id"), id);
                }
            }
        }

        void receive(Element step) {
            Element template = children(step).get(0);
            for (String who : step.getAttribute("who").trim().split("\\s+")) {
                Element received = next(who, step);
                Optional<String> mismatch = matcher.mismatch(template, received);
                assertThat(mismatch).as(where(step) + ": " + who + " received " + xml(received)).isEmpty();
            }
        }

        void nothingFor(String whoList, Element step) {
            List<String> whos = whoList == null ? new ArrayList<>(jids.keySet()) : List.of(whoList.trim().split("\\s+"));
            for (String who : whos) {
                List<Packet> left = pending(who);
                assertThat(left).as((step == null ? name + " at the end" : where(step)) + ": nothing more for " + who)
                        .isEmpty();
            }
        }

        /** The next non-presence stanza for the participant, as DOM in jabber:client (it is consumed). */
        Element next(String who, Element step) {
            List<Packet> left = pending(who);
            assertThat(left).as(where(step) + ": a stanza for " + who).isNotEmpty();
            Packet p = left.get(0);
            muc.outbox.remove(p);
            String xml = p.toXML();
            int end = xml.indexOf('>');
            int space = xml.indexOf(' ');
            String head = xml.substring(0, space > 0 && space < end ? space : end);
            if (!xml.substring(0, end).contains("xmlns=")) {
                xml = head + " xmlns=\"jabber:client\"" + xml.substring(head.length());
            }
            return SecureXml.parse(xml).getDocumentElement();
        }

        /** Unconsumed stanzas for a participant; presences are never matched, so they are dropped. */
        List<Packet> pending(String who) {
            String jid = jids.get(who);
            List<Packet> mine = new ArrayList<>();
            for (Iterator<Packet> it = muc.outbox.iterator(); it.hasNext(); ) {
                Packet p = it.next();
                if (p.getTo() != null && p.getTo().toString().equals(jid)) {
                    if (p instanceof Presence) {
                        it.remove();
                    } else {
                        mine.add(p);
                    }
                }
            }
            return mine;
        }

        void substitute(Element e) {
            NamedNodeMap attrs = e.getAttributes();
            for (int i = 0; i < attrs.getLength(); i++) {
                Attr a = (Attr) attrs.item(i);
                a.setValue(matcher.substitute(a.getValue()));
            }
            List<Element> kids = children(e);
            if (kids.isEmpty() && TemplateMatcher.isCapture(e.getTextContent().strip())) {
                e.setTextContent(matcher.substitute(e.getTextContent()));
            }
            for (Element k : kids) {
                substitute(k);
            }
        }

        String where(Element step) {
            return name + " step <" + step.getLocalName() + (step.hasAttribute("who") ? " who='" + step.getAttribute("who") + "'" : "")
                    + "> #" + (indexOf(step) + 1);
        }

        int indexOf(Element step) {
            return children(script).indexOf(step);
        }
    }

    private static String attr(Element e, String name, String fallback) {
        return e.hasAttribute(name) ? e.getAttribute(name) : fallback;
    }

    private static List<Element> children(Element e) {
        List<Element> list = new ArrayList<>();
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element el && !SCENARIO_NS.equals(el.getNamespaceURI()) || n instanceof Element el2
                    && SCENARIO_NS.equals(el2.getNamespaceURI())) {
                list.add((Element) n);
            }
        }
        return list;
    }

    private static String xml(Element e) {
        return DomBatches.xml(e);
    }

    /** As the server hands a stanza to a component: the stream's default namespace left implicit. */
    private static String unqualified(String xml) {
        return xml.replace(" xmlns=\"jabber:client\"", "");
    }
}
