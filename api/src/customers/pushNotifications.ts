import type { Logger } from 'pino';

export interface PushNotification {
  notificationId: string;
  companyId: string;
  customerId: string;
  title: string;
  message: string;
}

/**
 * The port a push notification leaves through once its event is stored. The default adapter only
 * logs (no provider is configured); a real one (FCM, APNs, a webhook) plugs in here.
 */
export interface PushNotificationChannel {
  deliver(notification: PushNotification): Promise<void>;
}

export function logOnlyPushChannel(logger: Logger): PushNotificationChannel {
  return {
    async deliver({ notificationId, companyId, customerId }) {
      logger.info(
        { notificationId, companyId, customerId },
        'push notification recorded; the log-only channel delivers nothing',
      );
    },
  };
}
