package org.reconmuc.replay.meter;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class XmlStanzaTrackerTest {

    private static Series started() {
        Series s = new Series(10);
        s.start(System.nanoTime());
        return s;
    }

    @Test
    void findsStanzaBoundariesAcrossReadsQuotesAndSelfClosingElements() {
        Series series = started();
        BotMeter meter = new BotMeter(series, new Series(series.capacity()), 6, false);
        XmlStanzaTracker t = new XmlStanzaTracker(meter);
        String stream = "<?xml version='1.0'?><stream:stream xmlns='jabber:client' to='x'>"
                + "<stream:features><bind/></stream:features>"
                + "<message a='x>y' b=\"/>\"><body>1 &lt; 2 > 0</body><x/></message>"
                + "<presence/>"
                + "<iq type='result'/>";
        byte[] b = stream.getBytes(StandardCharsets.UTF_8);
        // Feed in awkward pieces.
        for (int i = 0; i < b.length; i += 7) {
            t.feed(b, i, Math.min(7, b.length - i));
        }
        assertThat(meter.stanzas).isEqualTo(4);
        assertThat(t.depth()).isEqualTo(1);
        assertThat(meter.xmlBytes).as("every byte counts; the stream header goes with the first element").isEqualTo(b.length);
        assertThat(meter.wireXmlBytes).isEqualTo(meter.xmlBytes + 4 * 52);
        assertThat(meter.zlibModelBytes).isPositive();
    }

    @Test
    void aStreamRestartAfterSaslOpensTheStreamAgainInsteadOfNestingIt() {
        Series series = started();
        BotMeter meter = new BotMeter(series, new Series(series.capacity()), 6, false);
        XmlStanzaTracker t = new XmlStanzaTracker(meter);
        String stream = "<?xml version='1.0'?><stream:stream xmlns='jabber:client' to='x' version='1.0'>"
                + "<stream:features><mechanisms/></stream:features>"
                + "<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>"
                + "<?xml version='1.0'?><stream:stream xmlns='jabber:client' to='x' version='1.0'>"
                + "<stream:features><bind/></stream:features>"
                + "<message><body>after the restart</body></message>"
                + "<stream:streamy/>";
        byte[] b = stream.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < b.length; i += 5) {
            t.feed(b, i, Math.min(5, b.length - i));
        }
        assertThat(meter.stanzas).as("features, success, features, message, and a look-alike name").isEqualTo(5);
        assertThat(t.depth()).isEqualTo(1);
    }

    @Test
    void theZlibModelGainsOnRepeatedStanzas() {
        Series series = started();
        BotMeter meter = new BotMeter(series, new Series(series.capacity()), 6, false);
        XmlStanzaTracker t = new XmlStanzaTracker(meter);
        byte[] head = "<stream:stream>".getBytes(StandardCharsets.UTF_8);
        t.feed(head, 0, head.length);
        String m = "<message from='room@reconmuc.localhost/alice' type='groupchat' id='r1.abc'><body>hello there #ubuntu</body>"
                + "<topic xmlns='urn:reconmuc:0'>ubuntu</topic></message>";
        byte[] mb = m.getBytes(StandardCharsets.UTF_8);
        t.feed(mb, 0, mb.length);
        long first = meter.zlibModelBytes;
        for (int i = 0; i < 9; i++) {
            t.feed(mb, 0, mb.length);
        }
        long rest = (meter.zlibModelBytes - first) / 9;
        assertThat(meter.stanzas).isEqualTo(10);
        assertThat(rest).as("a repeated stanza costs a few bytes in the shared zlib stream").isLessThan(first / 4);
        assertThat(meter.xmlBytes).isEqualTo(head.length + 10L * mb.length);
    }

    @Test
    void nothingIsCountedBeforeTheStartOrAfterTheStop() {
        Series series = new Series(10);
        BotMeter meter = new BotMeter(series, new Series(series.capacity()), 6, false);
        XmlStanzaTracker t = new XmlStanzaTracker(meter);
        byte[] b = "<s><a/><b/>".getBytes(StandardCharsets.UTF_8);
        t.feed(b, 0, b.length);
        assertThat(meter.stanzas).isZero();
        series.start(System.nanoTime());
        byte[] c = "<c/>".getBytes(StandardCharsets.UTF_8);
        t.feed(c, 0, c.length);
        series.stop();
        t.feed(c, 0, c.length);
        assertThat(meter.stanzas).isEqualTo(1);
        assertThat(series.total(Series.Metric.STANZAS)).isEqualTo(1);
    }

    @Test
    void histogramQuantiles() {
        Histogram h = new Histogram();
        for (int i = 1; i <= 1000; i++) {
            h.record(i / 10.0); // 0.1 .. 100 ms
        }
        assertThat(h.count()).isEqualTo(1000);
        assertThat(h.quantile(0.5)).isBetween(49.9, 50.2);
        assertThat(h.quantile(0.99)).isBetween(98.9, 100.0);
        assertThat(h.mean()).isBetween(50.0, 50.1);
        assertThat(h.cdf().get(h.cdf().size() - 1)[1]).isEqualTo(1.0);
    }
}
