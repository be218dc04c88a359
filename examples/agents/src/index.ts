export const handler = () => "ok";
