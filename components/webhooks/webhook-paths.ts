/** Every webhooks view has a URL; they are built here and nowhere else. */
export const webhooksPath = () => "/webhooks";
export const subscriptionPath = (id: string) => `/webhooks/${id}`;
