import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-OEZLUJZJ.js";import"./chunk-NWJSTDQY.js";import"./chunk-ZSEGA6K3.js";import"./chunk-Z3MQBOAB.js";import"./chunk-UCXDIBA5.js";import"./chunk-BMLWBR3I.js";import"./chunk-REMYMLTQ.js";import"./chunk-AGOBB62V.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
