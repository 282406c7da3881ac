package org.reconmuc.component.muc.options;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.component.RoomFeatures;
import org.reconmuc.component.muc.HistoryLengthOption;
import org.reconmuc.component.muc.MaxUsersOption;
import org.reconmuc.component.muc.MucBench;
import org.reconmuc.component.muc.Namespaces;
import org.reconmuc.component.muc.PasswordOption;
import org.reconmuc.component.muc.RoomConfig;
import org.reconmuc.component.muc.RoomConfigForm;
import org.reconmuc.component.muc.RoomOption;
import org.reconmuc.component.muc.RoomOptions;
import org.reconmuc.component.muc.RoomOwnerLists;
import org.reconmuc.component.muc.RoomPersistence;
import org.reconmuc.component.testing.HostileXml;

/**
 * Coverage-guided fuzzing (Jazzer) of the owner's {@code muc#roomconfig} form (XEP-0004 / XEP-0045
 * §10.2): whatever fields and values an owner submits (repeated fields, fields without var,
 * unknown vars, values that are no booleans or overflow, unknown choices),
 * {@link RoomConfigForm#apply} gives a configuration within the service's limits, which a
 * persistent room stores as its rendered form and reads back unchanged; or it refuses with an
 * IllegalArgumentException, which the room answers with not-acceptable. Nothing else escapes; and
 * through a room ({@link #ownerGetsResultOrNotAcceptable}), the owner who submits it, owner and
 * admin lists included, gets a result or not-acceptable, never internal-server-error.
 * {@code mvn test} replays the inputs under {@code src/test/resources/.../RoomConfigFormFuzzTestInputs};
 * {@code JAZZER_FUZZ=1} fuzzes.
 */
class RoomConfigFormFuzzTest {
    private static final String OWNER = "owner@example.org/a";
    private static final String GUEST = "guest@example.org/b";
    private static final RoomConfig.Limits LIMITS = new RoomConfig.Limits(50, 200, false);
    /** The options of a room of the service: the core's, and those of its features. */
    private static final List<RoomOption<?>> OPTIONS = java.util.stream.Stream.concat(RoomOptions.ALL.stream(),
            RoomFeatures.ALL.stream().filter(f -> f instanceof RoomOption<?>).map(f -> (RoomOption<?>) f)).toList();
    private static final RoomConfig DEFAULTS = RoomConfig.defaults(OPTIONS, LIMITS);
    /** Every field of the rendered form (the options, the password switch, the large-room switch), and the owner lists. */
    private static final String[] VARS = java.util.stream.Stream.concat(
            RoomConfigForm.render(DEFAULTS, LIMITS).elements("field").stream().map(f -> f.attributeValue("var")),
            java.util.stream.Stream.of(RoomOwnerLists.ROOMOWNERS, RoomOwnerLists.ROOMADMINS)).toArray(String[]::new);
    private static final String[] VALUES = {"1", "0", "true", "false", "", "none", "moderator", "participant", "visitor",
        "anyone", "moderators", "participants", "always", "logged", "en", "pt-BR", "x-klingon", "en_US",
        Namespaces.MUC_ROOMCONFIG, "romeo@montague.lit", "owner@example.org", "guest@example.org/b", "50", "51", "200"};

    @FuzzTest(maxDuration = "60s")
    void appliesOrRefuses(FuzzedDataProvider data) {
        HostileXml x = new HostileXml(data);
        Element form = HostileXml.asReceived(form(x));
        RoomConfig current = x.chance() ? DEFAULTS : RoomConfigForm.read(DEFAULTS, HostileXml.asReceived(
                RoomConfigForm.render(DEFAULTS.with(PasswordOption.PASSWORD, "secret"), LIMITS)), LIMITS);
        RoomConfig after;
        try {
            after = RoomConfigForm.apply(current, form, LIMITS);
        } catch (IllegalArgumentException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            return;
        }
        for (RoomOption<?> option : OPTIONS) {
            assertThat((Object) after.get(option)).as(option.var).isNotNull();
        }
        assertThat(after.get(HistoryLengthOption.HISTORY_LENGTH)).isBetween(0, LIMITS.maxHistory());
        assertThat(after.get(MaxUsersOption.MAX_USERS)).isBetween(1, LIMITS.maxUsers());
        // A persistent room stores the rendered form and reads it back (RoomPersistence): the same configuration.
        Element stored = HostileXml.asReceived(RoomConfigForm.render(after, LIMITS));
        assertThat(RoomConfigForm.read(DEFAULTS, stored, LIMITS)).isEqualTo(after);
    }

    /** A submitted {@code <x xmlns='jabber:x:data'/>} as a hostile owner might write it. */
    static Element form(HostileXml x) {
        Element form = DocumentHelper.createElement(QName.get("x", x.name(Namespaces.DATA_FORMS)));
        form.addAttribute("type", x.name("submit"));
        if (x.chance()) {
            field(form, "FORM_TYPE", List.of(x.value(Namespaces.MUC_ROOMCONFIG)));
        }
        for (int i = x.data().consumeInt(0, 5) == 0 ? x.count(300) : x.count(8); i > 0; i--) {
            int n = x.data().consumeInt(0, 5) == 0 ? x.count(40) : x.count(2);
            List<String> values = new java.util.ArrayList<>();
            for (int v = 0; v < n; v++) {
                values.add(x.value(VALUES));
            }
            Element f = field(form, x.data().consumeInt(0, 15) == 0 ? null : x.name(VARS), values);
            x.junk(f);
        }
        x.junk(form);
        return form;
    }

    private static Element field(Element form, String var, List<String> values) {
        Element f = form.addElement("field");
        if (var != null) {
            f.addAttribute("var", var);
        }
        for (String v : values) {
            f.addElement("value").setText(v);
        }
        return f;
    }

    @FuzzTest(maxDuration = "60s")
    void ownerGetsResultOrNotAcceptable(FuzzedDataProvider data) {
        MucBench muc = new MucBench();
        muc.join(OWNER, MucBench.ROOM, "Owner");
        muc.join(GUEST, MucBench.ROOM, "Guest");
        HostileXml x = new HostileXml(data);
        Element iq = DocumentHelper.createElement("iq");
        iq.addAttribute("type", "set");
        iq.addAttribute("id", "c");
        iq.addAttribute("from", OWNER);
        iq.addAttribute("to", MucBench.ROOM);
        iq.addElement(QName.get("query", Namespaces.MUC_OWNER)).add(form(x));
        muc.service.processPacket(new org.xmpp.packet.IQ(HostileXml.asReceived(iq)));
        org.xmpp.packet.Packet reply = muc.replyTo(OWNER, "c");
        if (reply.getError() != null) {
            assertThat(MucBench.errorCondition(reply)).isIn("not-acceptable", "bad-request");
            assertThat(MucBench.errorText(reply)).isNotBlank();
        }
    }
}
