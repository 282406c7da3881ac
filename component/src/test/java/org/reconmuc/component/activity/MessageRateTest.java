package org.reconmuc.component.activity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.OptionalDouble;
import org.dom4j.DocumentHelper;
import org.junit.jupiter.api.Test;
import org.xmpp.packet.Message;

/** XEP-0502's hourly counters, on a clock the test moves. */
class MessageRateTest {
    private static final Instant TEN = Instant.parse("2026-01-01T10:00:00Z");

    private static Instant at(String time) {
        return Instant.parse("2026-01-01T" + time + "Z");
    }

    @Test
    void noFigureBeforeAWholeHourOfDataThenTheRateOverTheHoursCovered() {
        MessageRate rate = new MessageRate(at("10:50:00"));
        rate.count(at("10:55:00"));
        assertEquals(OptionalDouble.empty(), rate.perHour(at("11:59:59")), "10 minutes of data: no figure, no placeholder");
        rate.count(at("11:10:00"));
        rate.count(at("11:20:00"));
        // 12:05: the completed hours cover 10:50–12:00, 70 minutes, with 3 messages.
        assertEquals(3 / (70 / 60.0), rate.perHour(at("12:05:00")).getAsDouble(), 1e-9);
    }

    @Test
    void messagesOfTheCurrentHourWaitForItsEnd() {
        MessageRate rate = new MessageRate(TEN);
        for (int i = 0; i < 6; i++) {
            rate.count(at("10:30:00"));
        }
        assertEquals(6.0, rate.perHour(at("11:00:00")).getAsDouble(), 1e-9);
        rate.count(at("11:15:00"));
        assertEquals(6.0, rate.perHour(at("11:30:00")).getAsDouble(), 1e-9, "the shift register lags by up to an hour (§7)");
        assertEquals(3.5, rate.perHour(at("12:00:00")).getAsDouble(), 1e-9);
    }

    @Test
    void onlyTheLast24CompletedHoursCount() {
        MessageRate rate = new MessageRate(TEN);
        for (int i = 0; i < 48; i++) {
            rate.count(TEN.plus(Duration.ofMinutes(30)));
        }
        Instant dayLater = TEN.plus(Duration.ofHours(24));
        assertEquals(2.0, rate.perHour(dayLater).getAsDouble(), 1e-9, "48 messages over 24 hours");
        assertEquals(0.0, rate.perHour(dayLater.plus(Duration.ofHours(1))).getAsDouble(), 1e-9,
                "the hour of 10:00 has left the window: never older than 72 hours (§4), here 24");
    }

    @Test
    void aSlotIsReusedForItsHourOnly() {
        MessageRate rate = new MessageRate(TEN);
        rate.count(TEN);
        rate.count(TEN.plus(Duration.ofHours(25)));   // the same slot, 25 hours on
        assertEquals(1 / 24.0, rate.perHour(TEN.plus(Duration.ofHours(26))).getAsDouble(), 1e-9);
    }

    @Test
    void whatCountsIsAMessageWithABodyThatTakesNothingBack() throws Exception {
        assertTrue(MessageRate.counts(message("<message type='groupchat'><body>hi</body></message>")));
        assertFalse(MessageRate.counts(message("<message type='groupchat'><active xmlns='http://jabber.org/protocol/chatstates'/></message>")));
        assertFalse(MessageRate.counts(message("<message type='groupchat'><body>hi!</body>"
                + "<replace xmlns='urn:xmpp:message-correct:0' id='m1'/></message>")), "XEP-0308 corrections SHOULD NOT count");
        assertFalse(MessageRate.counts(message("<message type='groupchat'><body>fallback</body>"
                + "<retract xmlns='urn:xmpp:message-retract:1' id='m1'/></message>")));
    }

    @Test
    void theFigureIsWrittenWithADotWhateverTheLocale() {
        java.util.Locale before = java.util.Locale.getDefault();
        try {
            java.util.Locale.setDefault(java.util.Locale.GERMANY);
            assertEquals("23.42", MessageRate.format(23.4213));
        } finally {
            java.util.Locale.setDefault(before);
        }
    }

    private static Message message(String xml) throws Exception {
        return new Message(DocumentHelper.parseText(xml).getRootElement());
    }
}
