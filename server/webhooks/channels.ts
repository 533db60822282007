/** NOTIFY channel that wakes delivery loops when deliveries become due (fan-out, redelivery). */
export const DELIVERIES_CHANNEL = "webhook_deliveries_due";
