package org.reconmuc.component.transport;

import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

/**
 * Captures what the transport package logs (at DEBUG and above) instead of printing it; prints it
 * when a test fails.
 */
final class LogCapture implements BeforeEachCallback, AfterEachCallback, TestWatcher {

    private final Logger logger = (Logger) LoggerFactory.getLogger("org.reconmuc.component.transport");
    private ListAppender<ILoggingEvent> appender;

    @Override
    public void beforeEach(ExtensionContext context) {
        appender = new ListAppender<>() {
            @Override
            protected void append(ILoggingEvent e) {
                e.prepareForDeferredProcessing();   // capture the thread name now
                super.append(e);
            }
        };
        appender.start();
        logger.addAppender(appender);
        logger.setLevel(Level.DEBUG);
        logger.setAdditive(false);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        // Detached in testFailed/testSuccessful (called after afterEach) so a failure can still print.
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        System.err.println("---- log of " + context.getDisplayName() + " ----");
        for (ILoggingEvent e : events()) {
            System.err.println(e.getLevel() + " [" + e.getThreadName() + "] " + e.getFormattedMessage());
        }
        detach();
    }

    @Override
    public void testSuccessful(ExtensionContext context) {
        detach();
    }

    @Override
    public void testAborted(ExtensionContext context, Throwable cause) {
        detach();
    }

    private void detach() {
        if (appender != null) {
            logger.detachAppender(appender);
            appender = null;
        }
    }

    List<ILoggingEvent> events() {
        ListAppender<ILoggingEvent> a = appender;
        synchronized (a) {   // AppenderBase.doAppend holds this lock while adding
            return List.copyOf(a.list);
        }
    }

    List<String> messages(Level level) {
        return events().stream().filter(e -> e.getLevel() == level)
                .map(ILoggingEvent::getFormattedMessage).collect(Collectors.toList());
    }
}
