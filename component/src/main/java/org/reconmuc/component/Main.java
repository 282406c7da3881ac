package org.reconmuc.component;

import org.reconmuc.component.config.ClusterConfig;
import org.reconmuc.component.config.ConfigLoader;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.component.store.StoreException;
import org.reconmuc.component.transport.Termination;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Command line: {@code java -jar reconmuc-component.jar --help}. */
public final class Main {
    private static final Logger LOG = LoggerFactory.getLogger(Main.class);
    static final int EXIT_CONFIG_OR_AUTH = 2;

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        if (ConfigLoader.wantsHelp(args)) {
            System.out.print(ConfigLoader.help());
            return;
        }
        ServiceConfig config;
        ClusterConfig cluster;
        try {
            config = ConfigLoader.load(args, System.getenv());
            cluster = ConfigLoader.loadCluster(args, System.getenv());
        } catch (ConfigLoader.ConfigException e) {
            System.err.println("reconmuc: " + e.getMessage());
            System.exit(EXIT_CONFIG_OR_AUTH);
            return;
        }
        LOG.info("starting with {}", config);
        ReconMuc muc;
        try {
            muc = ReconMuc.start(config, cluster);
        } catch (StoreException e) {
            System.err.println("reconmuc: " + e.getMessage());
            System.exit(EXIT_CONFIG_OR_AUTH);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(muc::close, "shutdown"));
        Termination termination = muc.awaitTermination();
        if (termination == Termination.AUTHENTICATION_FAILED) {
            muc.close();
            System.exit(EXIT_CONFIG_OR_AUTH);
        }
    }
}
