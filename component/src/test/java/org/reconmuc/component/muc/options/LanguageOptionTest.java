package org.reconmuc.component.muc.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.reconmuc.component.muc.MucBench.ROOM;
import static org.reconmuc.component.muc.MucBench.errorCondition;

import java.util.Map;
import org.dom4j.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.muc.MucBench;
import org.reconmuc.component.muc.Namespaces;
import org.xmpp.packet.Packet;

/** {@code muc#roomconfig_lang}: Romeo says his room talks Italian, and the Nurse's disco#info tells her so. */
class LanguageOptionTest {
    private static final String ROMEO = "romeo@montague.lit/phone";
    private static final String NURSE = "nurse@capulet.lit/x";

    private final MucBench muc = new MucBench();

    @BeforeEach
    void romeoOwnsTheRoom() {
        muc.join(ROMEO, ROOM, "Romeo");
    }

    private Packet configure(String lang) {
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='set' id='c'><query xmlns='" + Namespaces.MUC_OWNER + "'>"
                + "<x xmlns='jabber:x:data' type='submit'><field var='muc#roomconfig_lang'><value>" + lang
                + "</value></field></x></query></iq>");
        return muc.replyTo(ROMEO, "c");
    }

    private Map<String, String> roomInfo() {
        muc.send("<iq from='" + NURSE + "' to='" + ROOM + "' type='get' id='i'><query xmlns='" + Namespaces.DISCO_INFO + "'/></iq>");
        Element form = muc.replyTo(NURSE, "i").getElement().element("query").element("x");
        // A field may have no value (the avatar hash of a room without one, as Prosody sends it).
        Map<String, String> fields = new java.util.HashMap<>();
        form.elements("field").forEach(f -> fields.put(f.attributeValue("var"), f.elementText("value")));
        return fields;
    }

    @Test
    void theRoomsLanguageIsInItsFormAndItsRoomInfo() {
        assertThat(roomInfo()).doesNotContainKey("muc#roominfo_lang");
        assertThat(configure("it").getElement().attributeValue("type")).isEqualTo("result");

        assertThat(roomInfo()).containsEntry("muc#roominfo_lang", "it");
        muc.send("<iq from='" + ROMEO + "' to='" + ROOM + "' type='get' id='g'><query xmlns='" + Namespaces.MUC_OWNER + "'/></iq>");
        Element field = muc.replyTo(ROMEO, "g").getElement().element("query").element("x").elements("field").stream()
                .filter(f -> "muc#roomconfig_lang".equals(f.attributeValue("var"))).findFirst().orElseThrow();
        assertThat(field.elementText("value")).isEqualTo("it");

        assertThat(configure("").getElement().attributeValue("type")).as("unsaid again").isEqualTo("result");
        assertThat(roomInfo()).doesNotContainKey("muc#roominfo_lang");
    }

    @Test
    void aLanguageThatIsNoTagIsRefused() {
        Packet error = configure("Italian, mostly");
        assertThat(errorCondition(error)).isEqualTo("not-acceptable");
        assertThat(MucBench.errorText(error)).contains("muc#roomconfig_lang");
        assertThat(roomInfo()).doesNotContainKey("muc#roominfo_lang");
    }
}
