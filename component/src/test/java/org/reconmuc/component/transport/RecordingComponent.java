package org.reconmuc.component.transport;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.xmpp.component.Component;
import org.xmpp.component.ComponentManager;
import org.xmpp.packet.JID;
import org.xmpp.packet.Packet;

/** A component that records what happens to it. */
public class RecordingComponent implements Component, ConnectionListener {

    final BlockingQueue<Packet> packets = new LinkedBlockingQueue<>();
    final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    final AtomicInteger starts = new AtomicInteger();
    final AtomicInteger shutdowns = new AtomicInteger();
    final AtomicInteger connects = new AtomicInteger();
    final AtomicInteger disconnects = new AtomicInteger();
    volatile JID jid;
    volatile ComponentManager manager;
    volatile Consumer<Packet> onPacket = p -> { };
    volatile String packetThread;

    @Override
    public String getName() {
        return "recording";
    }

    @Override
    public String getDescription() {
        return "records what happens";
    }

    @Override
    public void processPacket(Packet packet) {
        packetThread = Thread.currentThread().getName();
        packets.add(packet);
        onPacket.accept(packet);
    }

    @Override
    public void initialize(JID jid, ComponentManager componentManager) {
        this.jid = jid;
        this.manager = componentManager;
        events.add("initialize");
    }

    @Override
    public void start() {
        starts.incrementAndGet();
        events.add("start");
    }

    @Override
    public void shutdown() {
        shutdowns.incrementAndGet();
        events.add("shutdown");
    }

    @Override
    public void connected() {
        connects.incrementAndGet();
        events.add("connected");
    }

    @Override
    public void disconnected() {
        disconnects.incrementAndGet();
        events.add("disconnected");
    }

    Packet nextPacket(Duration timeout) throws InterruptedException {
        Packet p = packets.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (p == null) {
            fail("no packet within " + timeout);
        }
        return p;
    }
}
