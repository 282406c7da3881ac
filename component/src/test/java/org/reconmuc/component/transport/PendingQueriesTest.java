package org.reconmuc.component.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.xmpp.component.ComponentException;
import org.xmpp.component.IQResultListener;
import org.xmpp.packet.IQ;
import org.xmpp.packet.JID;

class PendingQueriesTest {

    private final List<String> events = new CopyOnWriteArrayList<>();
    private final CountDownLatch timedOut = new CountDownLatch(1);

    private final IQResultListener listener = new IQResultListener() {
        @Override
        public void receivedAnswer(IQ iq) {
            events.add("answer " + iq.getID() + " " + iq.getType());
        }

        @Override
        public void answerTimeout(String id) {
            events.add("timeout " + id);
            timedOut.countDown();
        }
    };

    private static IQ ping(String id) {
        IQ iq = new IQ(IQ.Type.get);
        if (id != null) {
            iq.setID(id);
        }
        iq.setFrom(new JID("muc.example"));
        iq.setTo(new JID("romeo@localhost/orchard"));
        iq.setChildElement("ping", "urn:xmpp:ping");
        return iq;
    }

    private static IQ answer(IQ request, String from) {
        IQ result = IQ.createResultIQ(request);
        result.setFrom(new JID(from));
        return result;
    }

    @Test
    void theAnswerFromTheAskedAddressGoesToItsListenerOnce() throws Exception {
        PendingQueries queries = new PendingQueries();
        IQ ping = ping("p1");
        assertThat(queries.register(ping, listener, 60_000)).isEqualTo("p1");
        assertThat(queries.deliver(answer(ping, "juliet@localhost/balcony").getElement(),
                answer(ping, "juliet@localhost/balcony"))).as("same id from someone else").isFalse();
        IQ right = answer(ping, "romeo@localhost/orchard");
        assertThat(queries.deliver(right.getElement(), right)).isTrue();
        assertThat(queries.deliver(right.getElement(), right)).as("only once").isFalse();
        assertThat(events).containsExactly("answer p1 result");
        queries.cancelAll();
    }

    @Test
    void anIqWithoutIdGetsOneAndDuplicatesAndResultsAreRefused() throws Exception {
        PendingQueries queries = new PendingQueries();
        IQ noId = ping(null);
        noId.getElement().remove(noId.getElement().attribute("id"));
        String id = queries.register(noId, listener, 60_000);
        assertThat(id).startsWith("reconmuc-q").isEqualTo(noId.getID());
        assertThatThrownBy(() -> queries.register(ping(id), listener, 60_000)).isInstanceOf(ComponentException.class);
        assertThatThrownBy(() -> queries.register(IQ.createResultIQ(ping("r")), listener, 60_000))
                .isInstanceOf(ComponentException.class);
        queries.cancelAll();
    }

    @Test
    void anUnansweredQueryTimesOutAndCancelAllTimesOutTheRest() throws Exception {
        PendingQueries queries = new PendingQueries();
        queries.register(ping("slow"), listener, 10);
        assertThat(timedOut.await(5, TimeUnit.SECONDS)).isTrue();
        queries.register(ping("left"), listener, 60_000);
        queries.register(ping("cancelled"), listener, 60_000);
        queries.cancel("cancelled");
        queries.cancelAll();
        assertThat(events).containsExactly("timeout slow", "timeout left");
        assertThatThrownBy(() -> queries.register(ping("after"), listener, 60_000)).isInstanceOf(ComponentException.class);
    }
}
