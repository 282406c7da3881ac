package org.reconmuc.component.muc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.muc.StanzaErrors.Condition;
import org.reconmuc.component.muc.options.Affiliation;
import org.xmpp.packet.JID;
import org.xmpp.packet.Presence;

/**
 * The events a room fires, as features see them: Romeo enters a room whose features are a
 * guest list, a doorman and a greeter, attached in that order.
 */
class RoomEventsTest {
    private static final RealJid ROMEO = new RealJid(new JID("romeo@montague.lit/phone"));

    private final List<String> heard = new ArrayList<>();

    private RoomFeature feature(String name, boolean refuses) {
        return events -> events.on(RoomEvent.ENTERING, entering -> {
            heard.add(name);
            if (refuses) {
                entering.refuse(Condition.NOT_ALLOWED, name + " says no");
            }
        });
    }

    private RoomEvent.Entering romeoEnters(RoomEvents events) {
        return events.fire(RoomEvent.ENTERING, new RoomEvent.Entering(null, ROMEO, new Presence(), Affiliation.NONE, true));
    }

    @Test
    void everyFeatureHearsRomeoEnterInTheOrderTheyWereAttached() {
        RoomEvents events = RoomEvents.of(List.of(feature("guest list", false), feature("doorman", false), feature("greeter", false)));

        assertThat(romeoEnters(events).refused()).isFalse();
        assertThat(heard).containsExactly("guest list", "doorman", "greeter");
    }

    @Test
    void theFirstFeatureThatRefusesRomeoIsTheLastToHearOfHim() {
        RoomEvents events = RoomEvents.of(List.of(feature("guest list", false), feature("doorman", true), feature("greeter", true)));

        assertThat(romeoEnters(events).refused()).isTrue();
        assertThat(heard).containsExactly("guest list", "doorman");
    }

    @Test
    void aQuestionNoFeatureAnswersKeepsTheRoomsOwnAnswer() {
        RoomEvents events = RoomEvents.of(List.of(feature("doorman", true)));

        assertThat(events.fire(RoomEvent.ARCHIVING, new RoomEvent.Question(null, true)).answer()).isTrue();
        assertThat(events.fire(RoomEvent.PERSISTENT, new RoomEvent.Question(null, false)).answer()).isFalse();
        assertThat(heard).isEmpty();
    }
}
