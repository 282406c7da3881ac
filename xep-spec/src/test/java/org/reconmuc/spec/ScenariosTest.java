package org.reconmuc.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.transform.dom.DOMSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.reconmuc.codec.SecureXml;
import org.reconmuc.codec.XmlNamespaces;
import org.w3c.dom.Attr;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;

/** Static checks of every scenario script: schema, references, captures, clock arithmetic. */
class ScenariosTest {

    static Stream<String> scenarios() {
        return Scenarios.list().stream();
    }

    static Element root(String name) {
        return SecureXml.parse(Scenarios.read(name)).getDocumentElement();
    }

    @ParameterizedTest
    @MethodSource("scenarios")
    void validatesAgainstScenarioXsdAndIsNamedForItsFile(String name) throws Exception {
        Element root = root(name);
        Schemas.validator(Schemas.scenario()).validate(new DOMSource(root.getOwnerDocument()));
        assertThat(root.getNamespaceURI()).isEqualTo(Scenarios.NAMESPACE);
        assertThat(root.getAttribute("name")).isEqualTo(name);
    }

    @ParameterizedTest
    @MethodSource("scenarios")
    void citesSectionsOfTheSpecThatExist(String name) {
        Element description = TemplateMatcher.children(root(name)).get(0);
        String text = TemplateMatcher.text(description).replaceAll("\\s+", " ");
        Matcher m = Pattern.compile("reconmuc\\.md ((?:\\d+(?:\\.\\d+)?(?: \\(rule \\d+\\))?(?:, )?)+)").matcher(text);
        assertThat(m.find()).as(name + " cites reconmuc.md sections").isTrue();
        Matcher n = Pattern.compile("(\\d+(?:\\.\\d+)?)(?! *\\))").matcher(m.group(1).replaceAll("\\(rule \\d+\\)", ""));
        Map<String, String> sections = Dom.sections();
        while (n.find()) {
            assertThat(sections).as(name + " cites " + n.group(1)).containsKey(n.group(1));
        }
    }

    @ParameterizedTest
    @MethodSource("scenarios")
    void participantsCapturesIdsAndSentContentAreConsistent(String name) {
        Element root = root(name);
        Map<String, String> jids = new HashMap<>();
        Set<String> inRoom = new HashSet<>();
        Set<String> captured = new HashSet<>();
        Set<String> ids = new HashSet<>();
        String room = "chat@conference.example.org";
        for (Element step : TemplateMatcher.children(root)) {
            switch (step.getLocalName()) {
                case "config" -> {
                    if (step.hasAttribute("room")) {
                        room = step.getAttribute("room");
                    }
                }
                case "participant" -> assertThat(jids.put(step.getAttribute("who"), step.getAttribute("jid")))
                        .as(name + ": declared once").isNull();
                case "join" -> {
                    String who = step.getAttribute("who");
                    if (step.hasAttribute("jid")) {
                        String old = jids.putIfAbsent(who, step.getAttribute("jid"));
                        assertThat(old == null || old.equals(step.getAttribute("jid"))).isTrue();
                    }
                    assertThat(jids).as(name + ": " + who + " has a JID by its first join").containsKey(who);
                    assertThat(inRoom.add(who)).as(name + ": " + who + " is not in the room yet").isTrue();
                }
                case "leave" -> assertThat(inRoom.remove(step.getAttribute("who"))).isTrue();
                case "change-nick" -> assertThat(inRoom).contains(step.getAttribute("who"));
                case "send" -> {
                    String who = step.getAttribute("who");
                    assertThat(jids).as(name + ": sender declared").containsKey(who);
                    Element stanza = TemplateMatcher.children(step).get(0);
                    assertThat(stanza.getNamespaceURI()).isEqualTo(XmlNamespaces.JABBER_CLIENT);
                    for (String ref : captureRefs(stanza)) {
                        assertThat(captured).as(name + ": {" + ref + "} is captured before it is sent").contains(ref);
                    }
                    assertThat(stanza.getAttribute("to")).as(name + ": sends go to the room").isEqualTo(room);
                    if (stanza.hasAttribute("id")) {
                        assertThat(ids.add(stanza.getAttribute("id"))).as(name + ": unique id " + stanza.getAttribute("id")).isTrue();
                    }
                    List<String> errors = new ArrayList<>();
                    for (Element ours : Dom.outermostOurs(stanza)) {
                        String error = Dom.validationError(ours);
                        if (error != null) {
                            errors.add(error);
                        }
                    }
                    if ("true".equals(step.getAttribute("malformed"))) {
                        assertThat(errors).as(name + ": malformed='true' content is invalid").isNotEmpty();
                    } else {
                        assertThat(errors).as(name + ": sent content is valid").isEmpty();
                    }
                    if (step.hasAttribute("capture-stanza-id")) {
                        assertThat("groupchat".equals(stanza.getAttribute("type"))
                                && !"explicit".equals(step.getAttribute("echo"))).isTrue();
                        captured.add(step.getAttribute("capture-stanza-id"));
                    }
                }
                case "receive" -> {
                    for (String who : step.getAttribute("who").split(" ")) {
                        assertThat(jids).as(name + ": receiver declared").containsKey(who);
                    }
                    Element template = TemplateMatcher.children(step).get(0);
                    assertThat(template.getNamespaceURI()).isEqualTo(XmlNamespaces.JABBER_CLIENT);
                    assertThat(template.getLocalName()).as("presences are never matched").isIn("message", "iq");
                    captured.addAll(captureRefs(template));
                }
                case "description", "receive-nothing", "advance" -> {
                }
                default -> fail("unexpected step " + step.getLocalName());
            }
        }
    }

    /**
     * Delay stamps in templates are the clock's value when the room received the message with that
     * id, as the script's advances compute it.
     */
    @ParameterizedTest
    @MethodSource("scenarios")
    void delayStampsAgreeWithTheScriptClock(String name) {
        Element root = root(name);
        Instant now = Instant.parse("2011-03-21T09:00:00Z");
        Map<String, Instant> sentAt = new HashMap<>();
        int checked = 0;
        for (Element step : TemplateMatcher.children(root)) {
            switch (step.getLocalName()) {
                case "config" -> {
                    if (step.hasAttribute("start")) {
                        now = OffsetDateTime.parse(step.getAttribute("start")).toInstant();
                    }
                }
                case "advance" -> {
                    BigDecimal s = new BigDecimal(step.getAttribute("seconds"));
                    now = now.plusMillis(s.movePointRight(3).longValueExact());
                }
                case "send" -> {
                    Element stanza = TemplateMatcher.children(step).get(0);
                    if ("message".equals(stanza.getLocalName()) && stanza.hasAttribute("id")) {
                        sentAt.put(stanza.getAttribute("id"), now);
                    }
                }
                case "receive" -> {
                    Element t = TemplateMatcher.children(step).get(0);
                    for (Element delay : Dom.all(t, XmlNamespaces.DELAY, "delay")) {
                        if (!delay.hasAttribute("stamp") || TemplateMatcher.isCapture(delay.getAttribute("stamp"))
                                || "*".equals(delay.getAttribute("stamp"))) {
                            continue;
                        }
                        Element message = delay.getParentNode() instanceof Element p && "forwarded".equals(p.getLocalName())
                                ? TemplateMatcher.children(p).stream().filter(c -> "message".equals(c.getLocalName()))
                                        .findFirst().orElseThrow()
                                : (Element) delay.getParentNode();
                        String id = message.getAttribute("id");
                        assertThat(sentAt).as(name + ": a message with id " + id + " was sent").containsKey(id);
                        Instant stamp = OffsetDateTime.parse(delay.getAttribute("stamp")).toInstant();
                        assertThat(stamp).as(name + ": stamp of " + id).isEqualTo(sentAt.get(id));
                        checked++;
                    }
                }
                default -> {
                }
            }
        }
        if (Scenarios.read(name).contains("urn:xmpp:delay\" stamp")) {
            assertThat(checked).isPositive();
        }
    }

    static Set<String> captureRefs(Element e) {
        Set<String> refs = new HashSet<>();
        NamedNodeMap attrs = e.getAttributes();
        for (int i = 0; i < attrs.getLength(); i++) {
            String v = ((Attr) attrs.item(i)).getValue();
            if (TemplateMatcher.isCapture(v)) {
                refs.add(v.substring(1, v.length() - 1));
            }
        }
        List<Element> kids = TemplateMatcher.children(e);
        if (kids.isEmpty() && TemplateMatcher.isCapture(TemplateMatcher.text(e))) {
            String v = TemplateMatcher.text(e);
            refs.add(v.substring(1, v.length() - 1));
        }
        for (Element k : kids) {
            refs.addAll(captureRefs(k));
        }
        return refs;
    }
}
