import { GatewayError } from '../../errors/gateway-error';

/** GW_INVALID_REQUEST whose message starts with the field at fault: `contents[2].parts[0]: …`. */
export function invalidField(param: string, message: string): GatewayError {
  return new GatewayError('GW_INVALID_REQUEST', `${param}: ${message}`, { param });
}
